/// One sound ready to mix: interleaved float frames at the output's rate and channel count.
///
/// Voices are rendered ahead (a pattern's sounds are known when it is scheduled), which lets the
/// mixer's limiter look ahead at no latency cost.
public struct AudioVoice: Sendable, Hashable {
    /// Sounds with the same key retrigger: a new one cuts the one playing and starts from its
    /// beginning (PianoPlay pressing a key again). `nil` voices always overlap.
    public var key: String?
    /// Output channels per frame.
    public var channels: Int
    /// Interleaved samples, nominally −1…1.
    public var samples: [Float]

    /// A voice of `samples` (`channels` per frame).
    public init(key: String?, channels: Int, samples: [Float]) {
        self.key = key
        self.channels = channels
        self.samples = samples
    }

    /// Frames held.
    public var frameCount: Int { channels > 0 ? samples.count / channels : 0 }
}

/// A voice and when it starts, in seconds from the pattern start.
public struct TimedVoice: Sendable, Hashable {
    /// Seconds from the pattern start (the haptic timeline's origin).
    public var time: Double
    /// What plays.
    public var voice: AudioVoice

    /// A voice at `time`.
    public init(time: Double, voice: AudioVoice) {
        self.time = time
        self.voice = voice
    }
}
