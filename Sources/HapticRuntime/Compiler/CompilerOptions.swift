/// Settings of `PatternCompiler`.
public struct CompilerOptions: Sendable, Hashable {
    /// Wanted real-time amplitude update rate in hertz; lowered automatically (see `maximumBusShare`).
    public var updateRate: Double
    /// Largest share of bus time amplitude updates may take: the rate is lowered to
    /// `maximumBusShare / amplitudeUpdateCost` when that is smaller.
    public var maximumBusShare: Double
    /// Time a mode switch takes (the actuator's `budget(for: .prepare)`): each `.prepare` is issued
    /// this long before the first event of the new mode.
    public var modeSwitchCost: Duration
    /// Sample rate of the PCM sink for audio-driven actuators.
    public var pcmSampleRate: Int
    /// Length of one `.pcm` block in seconds.
    public var pcmBlockDuration: Double
    /// How long a chip is busy with one ROM click, in seconds. TI publishes no per-effect durations;
    /// 60 ms covers the library's clicks and ticks including braking (an estimate).
    public var romEffectDuration: Double
    /// Longest program in seconds; later content is cut with a warning, so a stray huge time in a
    /// file cannot make the compiler render hours of samples.
    public var maximumDuration: Double

    /// Options with the documented defaults.
    public init(
        updateRate: Double = 1000,
        maximumBusShare: Double = 0.25,
        modeSwitchCost: Duration = .milliseconds(1),
        pcmSampleRate: Int = 48_000,
        pcmBlockDuration: Double = 0.01,
        romEffectDuration: Double = 0.06,
        maximumDuration: Double = 600
    ) {
        self.updateRate = updateRate
        self.maximumBusShare = maximumBusShare
        self.modeSwitchCost = modeSwitchCost
        self.pcmSampleRate = pcmSampleRate
        self.pcmBlockDuration = pcmBlockDuration
        self.romEffectDuration = romEffectDuration
        self.maximumDuration = maximumDuration
    }
}
