import ActuatorHAL

/// Where a playback's sound went and when each sound started against the haptic deadline it was
/// scheduled for.
public struct SoundReport: Sendable, Codable {
    /// One sound's start.
    public struct Onset: Sendable, Codable {
        /// The haptic deadline, in seconds after playback began.
        public var deadlineSeconds: Double
        /// First sample out of the device minus the deadline (positive: late), in microseconds.
        public var offsetMicroseconds: Double
    }

    /// The device's name (the ALSA device, or the simulated sink's).
    public var device: String
    /// Whether the output is a simulated device on virtual time.
    public var simulated: Bool
    /// Every sound started, oldest first (the latest `AudioScheduler.maximumReports`).
    public var onsets: [Onset]
    /// The largest |offset| among `onsets`, in microseconds; 0 without sounds.
    public var maximumOffsetMicroseconds: Double
    /// Times the device queue ran dry while sounds played.
    public var underruns: Int
    /// Sounds that could not be played (missing or undecodable files).
    public var problems: [String]

    /// The report of `audio`'s output, deadlines counted from `start`.
    public init(_ audio: EngineAudio, simulated: Bool, start: MonotonicInstant) {
        let output = audio.output
        device = output.sink.name
        self.simulated = simulated
        onsets = output.onsets.map { report in
            Onset(deadlineSeconds: (report.deadline - start).secondsValue, offsetMicroseconds: TransitionRecord.microseconds(report.offset))
        }
        maximumOffsetMicroseconds = onsets.map { abs($0.offsetMicroseconds) }.max() ?? 0
        underruns = output.underruns
        problems = audio.problems.map(\.description)
    }
}
