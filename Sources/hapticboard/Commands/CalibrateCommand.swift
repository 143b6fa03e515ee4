import ActuatorHAL
import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HapticRuntime

/// `hapticboard calibrate`: runs the DRV2605 auto-calibration and stores the results.
struct CalibrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Run auto-calibration on the board's actuators and store the results for later runs.",
        discussion: """
            Results (A_CAL_COMP, A_CAL_BEMF, BEMF_GAIN) are kept in calibration.json in the state \
            directory, keyed by board and actuator; play and status restore them after every \
            power-up instead of recalibrating. An actuator with stored results is not recalibrated \
            unless --force is given. Progress goes to standard error; the chip is switched off \
            (EN low) afterwards.

            Examples:
              hapticboard calibrate --board raspberry-pi-4-drv2605l
              hapticboard calibrate --actuator left --force --json
            """
    )

    @OptionGroup var options: GlobalOptions
    @OptionGroup var state: StateOptions

    @Option(name: .long, help: "Calibrate only this actuator (default: every actuator of the board).")
    var actuator: String?

    @Flag(name: .long, help: "Recalibrate even when results are stored.")
    var force = false

    /// One actuator's outcome.
    struct Outcome: Encodable {
        var name: String
        /// Whether calibration ran now (false: stored results were kept).
        var calibrated: Bool
        var result: CalibrationReport
    }

    struct Document: Encodable {
        var board: String
        var stateFile: String
        var actuators: [Outcome]
    }

    func run() throws {
        options.bootstrapLogging()
        let store = state.store
        var contents = try store.load()
        let board = try CommandBoard.open(options.resolvedBoard)
        // Closed only at an orderly end, after the chips were stopped; a death leaves the guardian to it.
        defer { board.close() }
        var outcomes: [Outcome] = []
        // A PCM actuator has no auto-calibration: it is skipped unless named.
        for target in try board.actuators(named: actuator) where target.drv2605 != nil || actuator != nil {
            if !force, let entry = contents.entry(board: board.name, actuator: target.name) {
                printError("\(target.name): calibration stored; keeping it (--force recalibrates)")
                outcomes.append(Outcome(name: target.name, calibrated: false, result: CalibrationReport(entry)))
                continue
            }
            let result = try calibrate(target)
            contents.store(result, board: board.name, actuator: target.name, at: Date())
            try store.save(contents)
            if let entry = contents.entry(board: board.name, actuator: target.name) {
                outcomes.append(Outcome(name: target.name, calibrated: true, result: CalibrationReport(entry)))
            }
        }
        if options.json {
            try printJSON(Document(board: board.name, stateFile: store.path, actuators: outcomes))
        } else {
            for outcome in outcomes {
                print("\(outcome.name): \(outcome.calibrated ? "calibrated" : "stored"): \(outcome.result.text)")
            }
            print("state: \(store.path)")
        }
    }

    /// Wake, calibrate (the datasheet procedure, GO polled every 15 ms), then EN low; each step
    /// announced on standard error.
    private func calibrate(_ target: BoardActuator) throws(CommandLineError) -> DRV2605CalibrationResult {
        let name = target.name
        guard let driver = target.drv2605 else {
            throw .calibrationFailed(actuator: name, reason: "a pcm-actuator has no auto-calibration")
        }
        let bound = driver.configuration.autoCalibrationTime.timeout
        do {
            printError("\(name): waking the chip and writing its configuration…")
            try target.actuator.wake()
            printError("\(name): auto-calibration running (the chip allows up to \(ContentSummary.number(bound.secondsValue)) s)…")
            let started = driver.driver.clock.now
            let result = try ProgressTicker.showing("\(name): calibrating") { try driver.calibrate() }
            let took = driver.driver.clock.now - started
            printError("\(name): done in \(ContentSummary.number(took.secondsValue)) s; switching the chip off")
            try target.actuator.sleep()
            return result
        } catch {
            _ = try? target.actuator.sleep()
            throw .calibrationFailed(actuator: name, reason: "\(error)")
        }
    }
}
