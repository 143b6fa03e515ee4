import ActuatorHAL
import HapticRuntime
import HardwareMocks

/// What `play` prints when it ends, normally or on a signal: the session's report, and on a
/// simulated board what the simulated chips and devices were left with.
struct PlaySummary: Encodable {
    /// The simulated chip's registers after playback: how tests see that it ended in standby, silent.
    struct ChipState: Encodable {
        /// The actuator the chip drives.
        var name: String
        /// MODE (0x01) and RTP_INPUT (0x02) as hex bytes.
        var mode: String
        var realtimeInput: String
        /// MODE.STANDBY.
        var standby: Bool
        /// The EN line is high.
        var enabled: Bool

        init(name: String, _ chip: DRV2605Model) {
            self.name = name
            let mode = chip.register(DRV2605Register.mode.rawValue)
            self.mode = hexByte(mode)
            realtimeInput = hexByte(chip.register(DRV2605Register.realtimeInput.rawValue))
            standby = mode & 0x40 != 0
            enabled = chip.isEnabled
        }
    }

    var board: String
    var report: PlaybackReport
    /// `SIGINT` or `SIGTERM` when playback was stopped by one.
    var stoppedBy: String?
    /// On the sim board: each simulated chip after playback.
    var chips: [ChipState]
    /// On a simulated board with several chips playing the same content: the largest difference
    /// between the chips' onsets of the same event (the k-th time each chip's output rose from
    /// silence), in microseconds; nil with one chip or when the chips played different content.
    var onsetSpreadMicroseconds: Double?
    /// On a simulated PCM actuator: what its device played.
    var pcm: [PCMDriveState]

    init(board: CommandBoard, targets: [BoardActuator], report: PlaybackReport, stoppedBy signal: Int32?) {
        self.board = board.name
        self.report = report
        stoppedBy = signal.map(StopRequest.name(of:))
        let simulated = targets.compactMap { target in board.simulatedChip(of: target).map { (target.name, $0) } }
        chips = simulated.map { ChipState(name: $0.0, $0.1.chip) }
        onsetSpreadMicroseconds = Self.onsetSpread(simulated.map(\.1.chip.drive)).map(TransitionRecord.microseconds)
        pcm = targets.compactMap { target in board.simulatedPCM(of: target).flatMap { PCMDriveState(target, devices: $0) } }
    }

    /// The summary of a playback the service made (no simulated chips to show).
    init(board: String, report: PlaybackReport) {
        self.board = board
        self.report = report
        stoppedBy = nil
        chips = []
        onsetSpreadMicroseconds = nil
        pcm = []
    }

    private enum CodingKeys: String, CodingKey {
        case board, stoppedBy, chips, onsetSpreadMicroseconds, pcm
    }

    /// The report's keys beside the board's, in one object.
    func encode(to encoder: any Encoder) throws {
        try report.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(board, forKey: .board)
        try container.encodeIfPresent(stoppedBy, forKey: .stoppedBy)
        try container.encode(chips, forKey: .chips)
        try container.encodeIfPresent(onsetSpreadMicroseconds, forKey: .onsetSpreadMicroseconds)
        try container.encode(pcm, forKey: .pcm)
    }

    /// The largest spread between the chips' k-th onsets, when every chip has as many.
    static func onsetSpread(_ drives: [DriveTimeline]) -> Duration? {
        guard drives.count > 1 else { return nil }
        let onsets = drives.map { drive in
            zip([DriveTimeline.Change?.none] + drive.changes.map(Optional.some), drive.changes)
                .filter { previous, change in (previous?.amplitude ?? 0) == 0 && change.amplitude != 0 }
                .map(\.1.time)
        }
        guard let count = onsets.first?.count, count > 0, onsets.allSatisfy({ $0.count == count }) else { return nil }
        return (0..<count).map { k in
            let times = onsets.map { $0[k] }
            return (times.max() ?? .zero) - (times.min() ?? .zero)
        }.max()
    }

    var text: String {
        let report = report
        var lines = [
            "played \(report.content.joined(separator: ", ")) on \(board)/\(report.actuators.joined(separator: "+")): \(report.events) event(s) × \(report.passes) pass(es), \(report.commands) commands in \(ContentSummary.number(report.elapsedSeconds)) s",
            "late \(report.late), dropped \(report.dropped); lateness p99 \(ContentSummary.number(report.p99LatenessMicroseconds)) µs, worst \(ContentSummary.number(report.maximumLatenessMicroseconds)) µs; calibration \(report.calibration)",
        ]
        lines += report.transitions.map { "  \($0.text)" }
        if let stoppedBy { lines.append("stopped by \(stoppedBy); actuator stopped and in standby") }
        lines += pcm.map(\.text)
        if let audio = report.audio { lines.append(audio.text) }
        for chip in chips { lines.append("chip \(chip.name): MODE \(chip.mode), RTP_INPUT \(chip.realtimeInput)\(chip.standby ? ", standby" : "")") }
        if let onsetSpreadMicroseconds { lines.append("onsets on the chips differ by at most \(ContentSummary.number(onsetSpreadMicroseconds)) µs") }
        return lines.joined(separator: "\n")
    }
}

extension SoundReport {
    var text: String {
        let placement = onsets.isEmpty ? "no sounds" : "\(onsets.count) sound(s), onset vs haptic deadline within \(ContentSummary.number(maximumOffsetMicroseconds)) µs"
        var lines = ["audio on \(device)\(simulated ? " (simulated)" : ""): \(placement), underruns \(underruns)"]
        lines += problems.map { "  \($0)" }
        return lines.joined(separator: "\n")
    }
}
