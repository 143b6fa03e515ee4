import ActuatorHAL
import HapticRuntime

/// The sound part of `play`'s summary: where it went and when each sound started against the
/// haptic deadline it was scheduled for.
struct AudioSummary: Encodable {
    /// One sound's start.
    struct Onset: Encodable {
        /// The haptic deadline, in seconds after playback began.
        var deadlineSeconds: Double
        /// First sample out of the device minus the deadline (positive: late), in microseconds.
        var offsetMicroseconds: Double
    }

    /// The ALSA device, or `sim audio` for the simulated capture sink.
    var device: String
    /// Whether the output is the simulated capture sink on the virtual clock.
    var simulated: Bool
    /// Every sound started, oldest first (the latest `AudioScheduler.maximumReports`).
    var onsets: [Onset]
    /// The largest |offset| among `onsets`, in microseconds; 0 without sounds.
    var maximumOffsetMicroseconds: Double
    /// Times the device queue ran dry while sounds played.
    var underruns: Int
    /// Sounds that could not be played (missing or undecodable files).
    var problems: [String]

    /// The summary of `audio`'s output, deadlines counted from `start`.
    init(_ audio: PlayAudio, start: MonotonicInstant) {
        let output = audio.audio.output
        device = output.sink.name
        simulated = audio.isSimulated
        onsets = output.onsets.map { report in
            Onset(deadlineSeconds: (report.deadline - start).secondsValue, offsetMicroseconds: PlaySummary.microseconds(report.offset))
        }
        maximumOffsetMicroseconds = onsets.map { abs($0.offsetMicroseconds) }.max() ?? 0
        underruns = output.underruns
        problems = audio.audio.problems.map(\.description)
    }

    var text: String {
        let placement = onsets.isEmpty ? "no sounds" : "\(onsets.count) sound(s), onset vs haptic deadline within \(ContentSummary.number(maximumOffsetMicroseconds)) µs"
        var lines = ["audio on \(device)\(simulated ? " (simulated)" : ""): \(placement), underruns \(underruns)"]
        lines += problems.map { "  \($0)" }
        return lines.joined(separator: "\n")
    }
}
