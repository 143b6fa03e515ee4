import ActuatorHAL
import HardwareMocks

/// What `play` prints when it ends, normally or on a signal.
struct PlaySummary: Encodable {
    /// The simulated chip's registers after playback: how tests see that it ended in standby, silent.
    struct ChipState: Encodable {
        /// MODE (0x01) and RTP_INPUT (0x02) as hex bytes.
        var mode: String
        var realtimeInput: String
        /// MODE.STANDBY.
        var standby: Bool
        /// The EN line is high.
        var enabled: Bool

        init(_ chip: DRV2605Model) {
            let mode = chip.register(DRV2605Register.mode.rawValue)
            self.mode = hexByte(mode)
            realtimeInput = hexByte(chip.register(DRV2605Register.realtimeInput.rawValue))
            standby = mode & 0x40 != 0
            enabled = chip.isEnabled
        }
    }

    var board: String
    var actuator: String
    var content: [String]
    /// Events in one pass over the content.
    var events: Int
    /// Passes started (more than one with --loop).
    var passes: Int
    var commands: Int
    var late: Int
    var dropped: Int
    var unsupported: Int
    var maximumLatenessMicroseconds: Double
    /// Seconds on the player's clock from the first command to the end.
    var elapsedSeconds: Double
    var transitions: [TransitionRecord]
    /// `stored` when a stored calibration was restored at wake, else `none`.
    var calibration: String
    /// `SIGINT` or `SIGTERM` when playback was stopped by one.
    var stoppedBy: String?
    /// On the sim board: the chip after playback.
    var chip: ChipState?

    var text: String {
        var lines = [
            "played \(content.joined(separator: ", ")) on \(board)/\(actuator): \(events) event(s) × \(passes) pass(es), \(commands) commands in \(ContentSummary.number(elapsedSeconds)) s",
            "late \(late), dropped \(dropped)\(unsupported > 0 ? ", unsupported \(unsupported)" : ""), worst lateness \(ContentSummary.number(maximumLatenessMicroseconds)) µs; calibration \(calibration)",
        ]
        lines += transitions.map { "  \($0.text)" }
        if let stoppedBy { lines.append("stopped by \(stoppedBy); actuator stopped and in standby") }
        if let chip { lines.append("chip: MODE \(chip.mode), RTP_INPUT \(chip.realtimeInput)\(chip.standby ? ", standby" : "")") }
        return lines.joined(separator: "\n")
    }
}
