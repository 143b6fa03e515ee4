import ActuatorHAL
import ArgumentParser
import Foundation
import HapticRuntime
import HardwareMocks

/// `hapticboard play`: plays content on one actuator of the board and prints a summary.
struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play AHAP, Haptic Notation or note files, notation text, or a ROM effect on an actuator.",
        discussion: """
            Files play one after the other. The chip is woken (with any stored calibration), each \
            pattern is compiled for the actuator and played command by command at its deadline; \
            then the chip goes to standby and a summary is printed: events, commands, late (more \
            than 1 ms after the deadline), dropped (ROM triggers more than 20 ms late, amplitude \
            updates overtaken by the next one) and every power transition against its budget.

            On the sim board the virtual clock runs at wall-clock pace and, when standard output \
            is a terminal, a live view shows the drive and the acceleration an LRA model gives \
            for it (--quiet or --json turn it off; --fast skips the pacing).

            Ctrl-C (SIGINT) or SIGTERM stops the output, puts the actuator in standby, prints the \
            summary and exits with 130 or 143.

            Examples:
              hapticboard play Examples/notation/success-confirmation.hnl
              hapticboard play --notation 'loud sharp; . 0.2s; soft dull'
              hapticboard play --effect 47 --loop
              hapticboard play Examples/ahap/transients.ahap --rate 0.5 --json --quiet
            """
    )

    @OptionGroup var options: GlobalOptions
    @OptionGroup var state: StateOptions

    @Argument(help: "Content files (.ahap, .json, .hnl, .haptic-notation, .notes, .txt).")
    var files: [String] = []

    @Option(name: .long, help: ArgumentHelp("Haptic Notation text to play instead of files; ';' separates statements as a new line would.", valueName: "text"))
    var notation: String?

    @Option(name: .long, help: ArgumentHelp("A DRV2605 ROM effect id (1–123) to play instead of files.", valueName: "id"))
    var effect: Int?

    @Option(name: .long, help: "The actuator to play on (default: the board's first).")
    var actuator: String?

    @Flag(name: .long, help: "Play again and again until stopped (Ctrl-C).")
    var loop = false

    @Option(name: .long, help: "Playback rate: 2 plays twice as fast, 0.5 half as fast.")
    var rate: Double = 1

    @Flag(name: .long, help: "No live view and no content warnings; only the summary.")
    var quiet = false

    @Flag(name: .long, help: "Do not play audio events (accepted for scripts; audio-driven actuators are not supported yet, so audio events are never played).")
    var noAudio = false

    @Flag(name: .long, help: "On the sim board, run the virtual clock as fast as possible instead of in real time (for tests).")
    var fast = false

    func run() throws {
        options.bootstrapLogging()
        let log = options.logger("play")
        guard rate.isFinite, rate > 0 else { throw CommandLineError.invalidRate(rate) }
        let content = try PlayContent(files: files, notation: notation, effect: effect)
        if !quiet {
            for item in content.items { for warning in item.content.warnings { printError(warning.description) } }
        }
        let calibrations = try state.store.load()
        let board = try BoardChips.open(board: options.resolvedBoard)
        let target = try board.actuator(named: actuator, calibrations: calibrations)
        let signals = TerminationSignals()

        let clock: any MonotonicClock
        if let simulation = target.simulation {
            clock = fast ? simulation.clock : PacedClock(pacing: simulation.clock)
        } else {
            clock = target.chip.driver.clock
        }
        let player = ProgramPlayer(actuator: target.actuator, clock: clock, rate: rate, frameInterval: LiveView.frameInterval) {
            signals.received != nil
        }
        player.log = options.logger("player")
        var liveView: LiveView?
        if let simulation = target.simulation, !quiet, !options.json, !fast, isatty(STDOUT_FILENO) == 1 {
            let view = LiveView(chip: simulation.chip, model: try SimulatedLRA.model(resonantFrequency: target.chip.configuration.ratings.resonantFrequency), start: clock.now)
            player.onFrame = { view.draw(at: $0) }
            liveView = view
        }

        player.record(try target.actuator.wake())
        let capabilities = target.actuator.capabilities
        let programs = content.items.map { target.compile($0.content.pattern, capabilities: capabilities) }
        for (item, program) in zip(content.items, programs) {
            for warning in program.warnings where !quiet { printError("\(item.name): \(warning)") }
        }
        log.info("playing \(content.items.count) item(s) on \(board.boardName)/\(target.name)")

        let started = clock.now
        var passes = 0
        do {
            passes = try play(programs, with: player, on: clock)
            try target.actuator.stop()
            player.record(try target.actuator.standby())
        } catch {
            // Whatever failed, the actuator must not keep driving.
            _ = try? target.actuator.stop()
            _ = try? target.actuator.standby()
            liveView?.finish()
            throw error
        }
        let elapsed = clock.now - started
        liveView?.finish()

        let statistics = player.statistics
        let summary = PlaySummary(
            board: board.boardName,
            actuator: target.name,
            content: content.items.map(\.name),
            events: content.eventCount,
            passes: passes,
            commands: statistics.commands,
            late: statistics.late,
            dropped: statistics.dropped,
            unsupported: statistics.unsupported,
            maximumLatenessMicroseconds: (Double(statistics.maximumLateness.nanoseconds) / 100).rounded() / 10,
            elapsedSeconds: elapsed.secondsValue,
            transitions: statistics.transitions.map(TransitionRecord.init),
            calibration: target.actuator.calibration == nil ? "none" : "stored",
            stoppedBy: signals.received.map(TerminationSignals.name(of:)),
            chip: target.simulation.map { PlaySummary.ChipState($0.chip) }
        )
        if options.json { try printJSON(summary) } else { print(summary.text) }
        if let signal = signals.received { throw CommandTermination(signal: signal) }
    }

    /// Plays every program in turn (again and again with --loop) and waits for the chip to finish;
    /// returns the passes started. Stops early when a signal arrives.
    private func play(_ programs: [ActuatorProgram], with player: ProgramPlayer, on clock: any MonotonicClock) throws -> Int {
        var passes = 0
        repeat {
            passes += 1
            for program in programs {
                let zero = clock.now + .nanoseconds(Int64((program.leadTime / rate * 1e9).rounded()))
                guard try player.play(program, zeroAt: zero) else { return passes }
            }
        } while loop
        _ = try player.waitUntilIdle()
        return passes
    }
}
