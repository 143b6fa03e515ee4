extension PCMFormat {
    /// The period hapticboard asks for: 128 frames (2.7 ms at 48 kHz), a power of two every
    /// I2S codec and USB audio interface accepts. With the four-period buffer that is ≈ 11 ms of
    /// room — more than a stock kernel's scheduling tail — while a sound written one period
    /// ahead leaves the device within ≈ 3 ms.
    public static let lowLatencyPeriodFrames = 128

    /// A stream of `channels` at `sampleRate` with the low-latency period.
    public static func lowLatency(sampleRate: Int, channels: Int) -> PCMFormat {
        PCMFormat(sampleRate: sampleRate, channels: channels, periodFrames: lowLatencyPeriodFrames)
    }

    /// How long `frames` frames play.
    public func duration(ofFrames frames: Int) -> Duration {
        .nanoseconds(Int64(frames) * 1_000_000_000 / Int64(max(1, sampleRate)))
    }

    /// Whole frames that play in `duration` (none for a negative one).
    public func frames(in duration: Duration) -> Int {
        let (seconds, nanoseconds) = max(duration.nanoseconds, 0).quotientAndRemainder(dividingBy: 1_000_000_000)
        return Int(seconds) * sampleRate + Int(nanoseconds * Int64(sampleRate) / 1_000_000_000)
    }
}
