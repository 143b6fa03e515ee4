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
            Files play one after the other through the HapticEngine: the chip is woken ahead of \
            the content (restoring any stored calibration), each pattern is compiled for the \
            actuator and its commands run on the DeadlineScheduler's timing thread; then the \
            chip goes to standby and a summary is printed: events, scheduled actions run, late \
            (dispatched more than 1 ms late), dropped (late transients, stream values overtaken \
            by newer ones), lateness p99 and worst, and every power transition against its budget.

            On the sim board the virtual clock runs at wall-clock pace and, when standard output \
            is a terminal, a live view shows the drive and the acceleration an LRA model gives \
            for it (--quiet or --json turn it off; --fast skips the pacing).

            Sound: AudioCustom and AudioContinuous events play on the board's `audio:` output \
            (waveform paths resolve in the content file's folder), on the engine's timeline. On a \
            simulated board without `audio:` (the built-in sim) the sound goes to a simulated \
            device on the virtual clock, and the summary reports when each sound's first sample \
            left it against its haptic deadline. --no-audio plays no sound.

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

    @Option(name: .long, help: "The actuator to play on (default: every actuator of the board).")
    var actuator: String?

    @Flag(name: .long, help: "Play again and again until stopped (Ctrl-C).")
    var loop = false

    @Option(name: .long, help: "Playback rate: 2 plays twice as fast, 0.5 half as fast.")
    var rate: Double = 1

    @Flag(name: .long, help: "No live view and no content warnings; only the summary.")
    var quiet = false

    @Flag(name: .long, help: "Play no sound: audio events are left out (not counted, no warning) and no sound output is opened.")
    var noAudio = false

    @Flag(name: .long, help: "On the sim board, run the virtual clock as fast as possible instead of in real time (for tests).")
    var fast = false

    @Option(name: .long, help: ArgumentHelp("How late a transient may be before it is dropped rather than played late, in milliseconds; raise it on slow or emulated machines.", valueName: "ms"))
    var lateTolerance: Double = 3

    /// The first pattern starts at least this long after the engine does, so the timing thread is
    /// up and running (and the chip awake) before the first deadline rather than racing it.
    static let startDelay = Duration.milliseconds(50)
    /// Added to the slowest actuator's wake and prepare budgets when they exceed `startDelay`
    /// (a PCM device takes up to 50 ms to open), so the wake is not dispatched late.
    static let wakeMargin = Duration.milliseconds(2)

    /// How far ahead the first pattern starts on `targets`: the engine wakes and prepares each
    /// actuator by its budgets ahead of the first event, which must not lie in the past.
    static func startDelay(for targets: [BoardActuator]) -> Duration {
        let lead = targets.map { $0.actuator.budget(for: .wake) + $0.actuator.budget(for: .prepare) }.max() ?? .zero
        return max(startDelay, lead + wakeMargin)
    }

    /// With --fast, how far virtual time moves between checks for the end and for signals: small,
    /// so the next file starts within a millisecond of the previous one's end.
    static let fastStep = Duration.milliseconds(1)

    func run() throws {
        options.bootstrapLogging()
        let log = options.logger("play")
        guard rate.isFinite, rate > 0 else { throw CommandLineError.invalidRate(rate) }
        guard lateTolerance.isFinite, lateTolerance >= 0 else { throw CommandLineError.invalidLateTolerance(lateTolerance) }
        let given = try PlayContent(files: files, notation: notation, effect: effect)
        let content = noAudio ? given.hapticsOnly() : given
        if loop, content.eventCount == 0 { throw CommandLineError.nothingToLoop }
        if !quiet {
            for item in content.items { for warning in item.content.warnings { printError(warning.description) } }
        }
        let calibrations = try state.store.load()
        let board = try BoardChips.open(board: options.resolvedBoard)
        // Disarmed only at an orderly end, after the chips were stopped; a death ends it otherwise.
        defer { board.disarmCrashGuardian() }
        let targets = try board.actuators(named: actuator, calibrations: calibrations)
        for target in targets { try target.checkDeviceOpens() }
        for target in targets {
            if let bus = target.simulation?.bus { FirstBusWriteReport.installIfRequested(on: bus) }
        }
        // One clock drives the engine: the hardware's, or the first simulated chip's.
        let target = targets[0]
        let clock: any MonotonicClock
        if let simulated = target.simulatedClock {
            clock = fast ? simulated : PacedClock(pacing: simulated, by: SystemMonotonicClock())
        } else {
            clock = target.clock
        }
        let playback = EnginePlayback(
            targets: targets, clock: clock, pace: target.simulatedClock != nil && fast ? .stepped : .threaded,
            idleTimeouts: board.idleTimeouts, latePolicy: LatePolicy(transientTolerance: .microseconds(Int64((lateTolerance * 1000).rounded())))
        )
        let hasAudioEvents = content.items.contains { $0.content.pattern.events.contains { !$0.type.isHaptic } }
        // No sound output for content without sound: an idle output would still be serviced.
        let sound = noAudio || !hasAudioEvents ? nil : try PlayAudio.open(board: board, contentFile: content.items[0].file, clock: clock, simulatedClock: target.simulatedClock)
        playback.engine.attachAudio(sound?.audio)
        if hasAudioEvents, !quiet {
            if sound == nil, !noAudio { printError("board \(board.boardName) has no 'audio:' output: audio events play no sound") }
            // The engine plays sounds at their own speed only (see EngineAudio).
            if sound != nil, rate != 1 { printError("--rate \(rate): sounds play only at rate 1; this playback is silent") }
        }
        // Installed before the timing thread starts, so every thread inherits the blocked signals.
        // The guard stops the engine itself; the command then reports and exits with 128 + signal.
        let signals = StopRequest()
        let termination = TerminationGuard.install(engine: playback.engine) { status in signals.record(signal: status - 128) }
        defer { termination.uninstall() }
        var liveView: LiveView?
        if let simulation = target.simulation, let chip = target.chip, !quiet, !options.json, !fast, isatty(STDOUT_FILENO) == 1 {
            liveView = LiveView(chip: simulation.chip, clock: clock, model: try SimulatedLRA.model(resonantFrequency: chip.configuration.ratings.resonantFrequency))
        }
        if !quiet {
            let capabilities = target.configuredCapabilities
            for item in content.items {
                var pattern = item.content.pattern
                // With a sound output the audio events are its to play (as in the engine), not the
                // actuator's to report as unplayed.
                if sound != nil { pattern.events.removeAll { !$0.type.isHaptic } }
                for warning in target.compile(pattern, capabilities: capabilities).warnings { printError("\(item.name): \(warning)") }
            }
        }
        log.info("playing \(content.items.count) item(s) on \(board.boardName)/\(targets.map(\.name).joined(separator: "+"))")

        // Woken before the first deadline is chosen: a wake from off reads the registers back and
        // may rewrite them, which on a slow bus or machine can outlast its budget, and the first
        // effect would then be dropped as late instead of played.
        // Content of sounds only has nothing for the actuators: they stay as they are.
        if content.items.contains(where: { $0.content.pattern.events.contains { $0.type.isHaptic } }) { try playback.wakeActuators() }
        // Content is compiled against the chip that answered at wake: a ROM effect needs a ROM.
        if let effect, let lacking = targets.first(where: { $0.actuator.capabilities.romLibrary == nil }) {
            try? playback.finish()
            throw CommandLineError.effectNeedsROM(effect: effect, actuator: lacking.name, chip: lacking.drv2605.map { "\($0.variant)" } ?? ActuatorDescription.pcmCompatible)
        }
        playback.startTimingThread()
        let snapshot: (@Sendable () -> Void)? = liveView.map { view in { @Sendable in view.capture() } }
        let started = clock.now + Self.startDelay(for: targets)
        var announced = false
        let frame = {
            // Logged once the first deadline has passed, so a script (or test) knows output is under way.
            if !announced, clock.now >= started {
                announced = true
                log.info("playback under way")
            }
            liveView?.draw()
        }
        let passes: Int
        let elapsed: Duration
        do {
            passes = try playback.play(
                content.items.map(\.content.pattern), loop: loop, rate: rate, startingAt: started,
                frameInterval: fast ? Self.fastStep : LiveView.frameInterval, stopRequested: { signals.received != nil },
                snapshot: snapshot, frame: frame,
                willPlay: { index in sound?.resolveWaveforms(besides: content.items[index].file) }
            )
            elapsed = max(.zero, clock.now - started)
            try playback.letSoundPlayOut(stopRequested: { signals.received != nil })
        } catch {
            // Whatever failed, the actuator must not keep driving.
            try? playback.finish()
            liveView?.finish()
            throw error
        }
        try playback.finish()
        liveView?.finish()

        let summary = PlaySummary(
            board: board.boardName, targets: targets, content: content, playback: playback,
            passes: passes, elapsed: elapsed, stoppedBy: signals.received,
            audio: sound.map { AudioSummary($0, start: started) }
        )
        if options.json { try printJSON(summary) } else { print(summary.text) }
        if let signal = signals.received { throw CommandTermination(signal: signal) }
    }
}
