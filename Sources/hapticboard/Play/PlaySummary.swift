import ActuatorHAL
import HardwareMocks

/// What `play` prints when it ends, normally or on a signal.
struct PlaySummary: Encodable {
    /// Later than this counts as late.
    static let lateTolerance = Duration.milliseconds(1)

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
    /// The actuators played on (every one of the board's unless `--actuator` named one).
    var actuators: [String]
    var content: [String]
    /// Events in one pass over the content.
    var events: Int
    /// Passes over the content started (a single looping pattern loops inside one pass).
    var passes: Int
    /// Scheduled actions the engine ran: commands, mode switches, power and timer actions, and the
    /// sound stream's periodic top-ups while sounds play (not the refills of a player's plan).
    var commands: Int
    /// Status reads the engine made while playing (fault polls, ROM effects polled to their end),
    /// not counted in `commands`.
    var statusReads: Int
    /// Actions dispatched more than `lateTolerance` after their dispatch instant (from the
    /// scheduler's lateness histogram, to its 1/64 resolution).
    var late: Int
    /// Transients dropped for lateness plus stream values skipped because a newer one was due.
    var dropped: Int
    var maximumLatenessMicroseconds: Double
    var p99LatenessMicroseconds: Double
    /// Seconds on the player's clock from the first command to the end.
    var elapsedSeconds: Double
    /// Power transitions by kind, each with its slowest time against its budget.
    var transitions: [TransitionTally]
    /// `stored` when a stored calibration was restored at wake, else `none`.
    var calibration: String
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
    /// The sound played beside the haptics; nil with `--no-audio` or without a sound output.
    var audio: AudioSummary?

    /// The summary of a finished (or stopped) playback: counters and lateness from the engine's
    /// scheduler (live-view snapshots left out), its power transitions, and on the sim board the chip.
    init(board: String, targets: [BoardActuator], content: PlayContent, playback: EnginePlayback, passes: Int, elapsed: Duration, stoppedBy signal: Int32?, audio: AudioSummary? = nil) {
        let metrics = playback.scheduler.metrics
        self.board = board
        actuators = targets.map(\.name)
        self.content = content.items.map(\.name)
        events = content.eventCount
        self.passes = passes
        commands = metrics.dispatched - playback.auxiliaryActionCount - playback.engine.monitoringActionCount - playback.engine.planRefillCount
        statusReads = playback.engine.monitoringActionCount
        late = metrics.lateness.estimatedCount(above: Self.lateTolerance)
        dropped = metrics.droppedLate + metrics.resynced
        maximumLatenessMicroseconds = Self.microseconds(metrics.lateness.maximum)
        p99LatenessMicroseconds = Self.microseconds(metrics.lateness.percentile(99))
        elapsedSeconds = elapsed.secondsValue
        transitions = TransitionTally.tallies(playback.engine.powerTransitions.map(\.report))
        let stored = targets.filter(\.hasCalibration).count
        calibration = stored == 0 ? "none" : stored == targets.count ? "stored" : "stored for \(stored) of \(targets.count)"
        stoppedBy = signal.map(StopRequest.name(of:))
        chips = targets.compactMap { target in target.simulation.map { ChipState(name: target.name, $0.chip) } }
        onsetSpreadMicroseconds = Self.onsetSpread(targets.compactMap { $0.simulation?.chip.drive }).map(Self.microseconds)
        pcm = targets.compactMap { $0.pcm.flatMap(PCMDriveState.init) }
        self.audio = audio
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

    /// Rounded to a tenth of a microsecond.
    static func microseconds(_ duration: Duration) -> Double {
        (Double(duration.nanoseconds) / 100).rounded() / 10
    }

    var text: String {
        var lines = [
            "played \(content.joined(separator: ", ")) on \(board)/\(actuators.joined(separator: "+")): \(events) event(s) × \(passes) pass(es), \(commands) commands in \(ContentSummary.number(elapsedSeconds)) s",
            "late \(late), dropped \(dropped); lateness p99 \(ContentSummary.number(p99LatenessMicroseconds)) µs, worst \(ContentSummary.number(maximumLatenessMicroseconds)) µs; calibration \(calibration)",
        ]
        lines += transitions.map { "  \($0.text)" }
        if let stoppedBy { lines.append("stopped by \(stoppedBy); actuator stopped and in standby") }
        lines += pcm.map(\.text)
        if let audio { lines.append(audio.text) }
        for chip in chips { lines.append("chip \(chip.name): MODE \(chip.mode), RTP_INPUT \(chip.realtimeInput)\(chip.standby ? ", standby" : "")") }
        if let onsetSpreadMicroseconds { lines.append("onsets on the chips differ by at most \(ContentSummary.number(onsetSpreadMicroseconds)) µs") }
        return lines.joined(separator: "\n")
    }
}
