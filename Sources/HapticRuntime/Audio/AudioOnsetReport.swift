import ActuatorHAL

/// When a sound's first sample leaves the device compared with its deadline.
public struct AudioOnsetReport: Sendable, Hashable {
    /// The haptic deadline the sound was scheduled for.
    public var deadline: MonotonicInstant
    /// When the first sample leaves the device, from the device's queued delay (snd_pcm_delay)
    /// at the last look before it played.
    public var onset: MonotonicInstant
    /// The output frame (of the mixer's count) holding the first sample.
    public var frame: Int

    /// A report.
    public init(deadline: MonotonicInstant, onset: MonotonicInstant, frame: Int) {
        self.deadline = deadline
        self.onset = onset
        self.frame = frame
    }

    /// onset − deadline: positive when the sound is late.
    public var offset: Duration { onset - deadline }
}
