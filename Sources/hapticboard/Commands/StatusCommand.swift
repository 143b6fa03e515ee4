import ActuatorHAL
import ArgumentParser
import HapticRuntime

/// `hapticboard status`: power state, faults and stored calibration of each actuator.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show each actuator's power state, faults and whether calibration is stored.",
        discussion: """
            Opening a board drives every EN line low, so each chip is woken (its configuration and \
            any stored calibration written, the wake timed against its budget), its STATUS read for \
            faults (OVER_TEMP, OC_DETECT, DIAG_RESULT), and switched off again.
            """
    )

    @OptionGroup var options: GlobalOptions
    @OptionGroup var state: StateOptions

    @Option(name: .long, help: "Only this actuator (default: every actuator of the board).")
    var actuator: String?

    struct ActuatorReport: Encodable {
        var name: String
        var variant: String?
        /// The state the chip was in when STATUS was read.
        var powerState: String
        var playing: Bool
        var faults: [String]
        var wake: TransitionRecord
        /// Stored calibration, restored at the wake; nil when none is stored.
        var calibration: CalibrationReport?

        var text: String {
            let faultText = faults.isEmpty ? "no faults" : "faults: \(faults.joined(separator: ", "))"
            let calibrationText = calibration.map { "calibration stored: \($0.text)" } ?? "no calibration stored (run 'hapticboard calibrate')"
            return "\(name): \(variant ?? "unknown chip"), \(powerState), \(faultText); \(calibrationText); \(wake.text)"
        }
    }

    func run() throws {
        options.bootstrapLogging()
        let store = state.store
        let contents = try store.load()
        let board = try CommandBoard.open(options.resolvedBoard, calibrations: contents)
        // Closed only at an orderly end, after the chips were stopped; a death leaves the guardian to it.
        defer { board.close() }
        var reports: [ActuatorReport] = []
        for target in try board.actuators(named: actuator) {
            let wake = try target.actuator.wake()
            let status = try target.actuator.status()
            reports.append(ActuatorReport(
                name: target.name,
                variant: target.drv2605?.driver.variant?.rawValue ?? target.pcm.map { _ in "pcm-actuator" },
                powerState: status.powerState.rawValue,
                playing: status.isPlaying,
                faults: status.faults.map(\.rawValue).sorted(),
                wake: TransitionRecord(wake),
                calibration: contents.entry(board: board.name, actuator: target.name).map(CalibrationReport.init)
            ))
            try target.actuator.sleep()
        }
        try options.print(board: board.name, reports, text: \.text)
    }
}
