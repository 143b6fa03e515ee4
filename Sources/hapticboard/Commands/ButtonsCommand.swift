import ActuatorHAL
import ActuatorHALLinux
import ArgumentParser
import Foundation
import HapticRuntime
import HardwareMocks

/// `hapticboard buttons`: the board's inputs and bindings, with every edge printed.
struct ButtonsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "buttons",
        abstract: "Run the board's buttons and encoders with their bindings, printing each edge, its kernel timestamp and its latency.",
        discussion: """
            Requests every line of the board file's inputs: section (bias, active level, debounce: \
            in the kernel with libgpiod 2, in software with 1.6), plays the bindings through the \
            same service `serve` runs, and prints one line per edge: the line, the edge, the \
            kernel's CLOCK_MONOTONIC timestamp, and what it did with the time from the edge until \
            the bindings had handed their players to the scheduler, which writes the first \
            command on that same thread when it is due at once (so this is edge → first bus \
            write for a press whose actuator is ready). Runs until Ctrl-C (SIGINT) or SIGTERM, or \
            for --seconds; the actuators end stopped and in standby.

            With --uinput the board is also a Linux input device (the force-feedback device \
            `rumble` creates, with the buttons' key: codes as EV_KEY and the encoders' axis: as \
            EV_REL): presses and detents are reported there, and games' rumble plays too.

            Examples:
              hapticboard buttons --board sim-kiosk-panel
              hapticboard buttons --board sim-kiosk-panel --seconds 30
            """
    )

    @OptionGroup var options: GlobalOptions
    @OptionGroup var realtime: RealtimeOptions

    @Option(name: .long, help: "Stop after this many seconds (default: until SIGINT or SIGTERM).")
    var seconds: Double?

    @Flag(name: .long, help: "Also report presses and detents on the board's uinput device (with force feedback), as keys and a wheel.")
    var uinput = false

    func validate() throws {
        if let seconds, !(seconds > 0) { throw ValidationError("--seconds must be a positive number, not \(seconds).") }
    }

    func run() throws {
        options.bootstrapLogging()
        let board = try CommandBoard.open(options.resolvedBoard)
        defer { board.close() }
        board.keepOnlyRecentSimulatedHistory()
        let configuration = board.board.inputs
        guard !configuration.isEmpty else {
            throw CommandLineError.content("board \(board.name) has no inputs: section (docs/inputs.md shows one)")
        }
        let library = try configuration.library.map { try ContentLibrary.load(folder: $0) } ?? ContentLibrary(folder: URL(fileURLWithPath: "/nonexistent/hapticboard-library"))
        let clock: any MonotonicClock = board.simulatedClock.map { PacedClock(pacing: $0, by: SystemMonotonicClock()) } ?? board.opened.clock
        let service = HapticService(board: board.opened, scheduler: DeadlineScheduler(clock: clock, name: "hapticboard-buttons"), library: library)
        let ended = RumbleEnding()
        let signals = StopRequest()
        let termination = TerminationGuard.install(stop: { service.engine.stopAtOnce() }) { status in
            signals.record(signal: status - 128)
            ended.finish(nil)
        }
        defer { termination.uninstall() }
        try service.start(timing: realtime.timing)
        defer { service.shutDown() }
        var provider: ForceFeedbackProvider?
        // Stopped however this ends, a refused thread included: the uinput device goes with it.
        defer { provider?.stop() }
        if uinput {
            let device = try board.opened.hardware.createForceFeedbackDevice(board.board.forceFeedbackSetup)
            provider = try ForceFeedbackProvider(device: device, engine: service.engine, layout: board.board.forceFeedbackLayout)
            try provider?.start(threadSetup: realtime.inputReader)
            FileHandle.standardOutput.write(Data("hapticboard buttons: input device \(device.clientPath ?? "(uinput)") '\(device.setup.name)'\n".utf8))
        }
        let inputs = try BoardInputs(configuration, hardware: board.opened.hardware, service: service, forceFeedback: provider)
        let printer = ButtonPrinter(clock: board.opened.clock)
        // Runs after the readers stop (declared after this): their last lines are written.
        defer { printer.flush() }
        for reader in inputs.readers {
            let line = reader.line.name
            reader.edgeHandler = { role, edge in printer.edge(line: line, role: role, edge) }
            reader.failureHandler = { role, error in printer.say("hapticboard buttons: input \(role.input) stopped: \(error)") }
        }
        inputs.keyReader?.failureHandler = { error in printer.say("hapticboard buttons: keys stopped: \(error)") }
        inputs.decoder.warningHandler = { printer.say("hapticboard buttons: warning: \($0)") }
        inputs.bindings?.reportHandler = { printer.report($0) }
        try inputs.start(threadSetup: realtime.inputReader)
        defer { inputs.stop() }
        let lines = inputs.readers.map { "\($0.role.input)=\($0.line.name)\($0.line.kernelDebounce > .zero ? " (kernel debounce)" : "")" }
            + (inputs.keyReader.map { ["keys of \($0.source.path)"] } ?? [])
        printer.say("hapticboard buttons: board \(board.name): \(lines.joined(separator: ", ")); \(configuration.bindings.count) binding(s)")
        if let seconds {
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { ended.finish(nil) }
        }
        _ = ended.wait()
        if let signal = signals.received { throw CommandTermination(signal: signal) }
    }
}

/// Prints what the readers' threads report, in order, on a queue of its own: formatting a line
/// (Foundation's `String(format:)`) and writing it were on the reader's thread before the edge was
/// decoded, so every press's first bus write waited for them — in the kernel lane's emulated guest,
/// most of the edge → bus figure. The instant a report is timed at is read on the reader's thread.
final class ButtonPrinter: @unchecked Sendable {
    private let queue = DispatchQueue(label: "hapticboard.buttons.printer")
    private let clock: any MonotonicClock

    init(clock: any MonotonicClock) {
        self.clock = clock
    }

    func say(_ text: String) {
        queue.async { Self.write(text) }
    }

    func edge(line: String, role: InputDecoder.LineRole, _ edge: EdgeEvent) {
        queue.async {
            Self.write(String(format: "%@ %@ %@ at %.6f s", role.input, line, edge.edge == .rising ? "rising" : "falling", edge.timestamp.seconds))
        }
    }

    func report(_ report: InputBindings.Report) {
        let latency = Double((clock.now - report.event.timestamp).nanoseconds) / 1_000
        queue.async {
            let played = report.players.isEmpty ? "no player" : "players \(report.players.map(String.init).joined(separator: ", "))"
            Self.write(String(format: "  %@ → %@, edge → scheduled %.0f µs", report.event.description, played, latency) + report.problems.map { "\n  refused: \($0)" }.joined())
        }
    }

    /// One line to standard output; on the queue only.
    private static func write(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Waits until every line handed over so far is written.
    func flush() {
        queue.sync {}
    }
}
