import ActuatorHAL
import ActuatorHALLinux
import ArgumentParser
import Foundation
import HapticRuntime
import HardwareMocks

/// `hapticboard play`: plays content on one actuator of the board and prints a summary.
struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play AHAP, .haptic, Haptic Notation or note files, sounds, notation text, or a ROM effect on an actuator.",
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
            left it against its haptic deadline. --no-audio plays no sound. A board whose \
            sound cannot be played (real hardware without `audio:`) plays the haptics and skips \
            the audio events with one warning, as Core Haptics' playsHapticsOnly does. An \
            AudioCustom waveform file that is missing is an error only when the sound would be \
            played (or with --strict); otherwise a warning.

            .haptic clips (Meta Haptics Studio, Lofelt Studio) play by Meta's mapping: amplitude \
            as intensity (square root), frequency as sharpness, each emphasis a click over the \
            continuous signal. A sound file (WAV, FLAC, OGG, AIFF) plays the haptics derived from \
            it (cached by content in --cache-dir; analysis options as for convert) together with \
            the sound itself where the board has a sound output.

            Ctrl-C (SIGINT) or SIGTERM stops the output, puts the actuator in standby, prints the \
            summary and exits with 130 or 143.

            Examples:
              hapticboard play Examples/notation/success-confirmation.hnl
              hapticboard play --notation 'loud sharp; . 0.2s; soft dull'
              hapticboard play --effect 47 --loop
              hapticboard play Examples/ahap/transients.ahap --rate 0.5 --json --quiet
              hapticboard play Examples/haptic/impact-rumble.haptic
              hapticboard play Examples/sound/door-knock.wav --release-ms 60
            """
    )

    @OptionGroup var options: GlobalOptions
    @OptionGroup var state: StateOptions
    @OptionGroup var realtime: RealtimeOptions

    @OptionGroup(title: "Haptics from a sound") var analysis: SoundAnalysisOptions

    @Argument(help: "Content files (.ahap, .haptic, .json, .hnl, .haptic-notation, .notes, .txt, .wav, .flac, .ogg, .aiff; - for standard input).")
    var files: [String] = []

    @Option(name: .long, help: ArgumentHelp("Where haptics derived from sounds are cached (default: $HAPTICBOARD_CACHE_DIR, else $XDG_CACHE_HOME/hapticboard, else ~/.cache/hapticboard; /var/cache/hapticboard as root).", valueName: "dir"))
    var cacheDir: String?

    @Flag(name: .long, help: "Treat a missing or refused AudioCustom waveform file as an error even when no sound is played.")
    var strict = false

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

    @Flag(name: .long, help: "Open the board directly even when a service (hapticboard serve) is running; by default play goes through a running service, which owns the hardware.")
    var noService = false

    @Option(name: .long, help: ArgumentHelp("How late a transient may be before it is dropped rather than played late, in milliseconds; raise it on slow or emulated machines.", valueName: "ms"))
    var lateTolerance: Double = 3

    /// With --fast, how far virtual time moves between checks for the end and for signals: small,
    /// so the next file starts within a millisecond of the previous one's end.
    static let fastStep = Duration.milliseconds(1)

    /// The simulated sound output of a simulated board without `audio:`: 48 kHz stereo at the
    /// low-latency period, like a typical I2S amplifier or USB sound card.
    static let simulatedSoundFormat = PCMFormat(sampleRate: 48_000, channels: 2, periodFrames: PCMFormat.lowLatencyPeriodFrames)

    /// The readers' warnings about the content, unless `--quiet`.
    private func printWarnings(of content: PlayContent) {
        guard !quiet else { return }
        for item in content.items { for warning in item.content.warnings { printError(warning.description) } }
    }

    func run() throws {
        options.bootstrapLogging()
        let log = options.logger("play")
        guard rate.isFinite, rate > 0 else { throw CommandLineError.invalidRate(rate) }
        guard lateTolerance.isFinite, lateTolerance >= 0 else { throw CommandLineError.invalidLateTolerance(lateTolerance) }
        let reader = CommandContent(soundSettings: try analysis.settings(), cache: DerivedHapticsCache(directory: cacheDir))
        let given = try PlayContent(files: files, notation: notation, effect: effect, reader: reader)
        if strict { try given.requirePlayableWaveforms() }
        let content = noAudio ? given.hapticsOnly() : given
        if loop, content.eventCount == 0 { throw CommandLineError.nothingToLoop }
        if !noService, let service = try ServicePlayback(options: options, socketPath: ServiceConnection.defaultSocketPath) {
            printWarnings(of: content)
            try service.play(content, actuator: actuator, loop: loop, rate: rate, noAudio: noAudio, effect: effect, quiet: quiet)
            return
        }
        let board = try CommandBoard.open(options.resolvedBoard, calibrations: try state.store.load())
        // Closed only at an orderly end, after the chips were stopped; a death leaves the guardian to it.
        defer { board.close() }
        let targets = try board.actuators(named: actuator)
        for target in targets { try checkDeviceOpens(target, on: board) }
        for target in targets {
            if let bus = board.simulatedChip(of: target)?.bus { FirstBusWriteReport.installIfRequested(on: bus) }
        }
        // One clock drives the engine: the hardware's, or the simulation's paced to the wall clock.
        let simulatedClock = board.simulatedClock
        let clock: any MonotonicClock = simulatedClock.map { fast ? $0 as any MonotonicClock : PacedClock(pacing: $0, by: SystemMonotonicClock()) } ?? board.opened.clock
        let session = PlaybackSession(
            board: board.opened, actuators: targets, clock: clock, pace: simulatedClock != nil && fast ? .stepped : .threaded(realtime.timing),
            latePolicy: LatePolicy(transientTolerance: .microseconds(Int64((lateTolerance * 1000).rounded())))
        )
        if !quiet { session.warningHandler = { printError($0) } }
        let hasAudioEvents = content.audioEventCount > 0
        // No sound output for content without sound: an idle output would still be serviced.
        let sound = noAudio || !hasAudioEvents ? nil : try openSound(on: board, clock: clock, soundsIn: content.items[0].soundFolder)
        session.attachSound(sound, simulated: simulatedClock != nil)
        if sound != nil { try content.requirePlayableWaveforms() }
        // Only now: where the sounds play, a missing one is the error above, not also a warning.
        printWarnings(of: content)
        if hasAudioEvents, !quiet {
            if sound == nil, !noAudio { printError("board \(board.name) has no 'audio:' output: \(content.audioEventCount) audio event(s) skipped, the haptics play (playsHapticsOnly)") }
            // The engine plays sounds at their own speed only (see EngineAudio).
            if sound != nil, rate != 1 { printError("--rate \(rate): sounds play only at rate 1; this playback is silent") }
        }
        // Installed before the timing thread starts, so every thread inherits the blocked signals.
        // The guard stops the engine itself; the command then reports and exits with 128 + signal.
        let signals = StopRequest()
        let termination = TerminationGuard.install(stop: session.engine.stopAtOnce) { status in signals.record(signal: status - 128) }
        defer { termination.uninstall() }
        var liveView: LiveView?
        if let target = targets.first, let simulation = board.simulatedChip(of: target), let configuration = target.drv2605?.configuration,
           !quiet, !options.json, !fast, isatty(STDOUT_FILENO) == 1 {
            liveView = LiveView(chip: simulation.chip, clock: clock, model: try SimulatedLRA.model(resonantFrequency: configuration.ratings.resonantFrequency))
        }
        log.info("playing \(content.items.count) item(s) on \(board.name)/\(targets.map(\.name).joined(separator: "+"))")

        // Content is compiled against the chip that answered at wake: a ROM effect needs a ROM.
        if let effect {
            try session.wake()
            if let lacking = targets.first(where: { $0.actuator.capabilities.romLibrary == nil }) {
                try? session.finish()
                throw CommandLineError.effectNeedsROM(effect: effect, actuator: lacking.name, chip: lacking.drv2605.map { "\($0.variant)" } ?? (lacking.forceFeedback != nil ? "evdev-ff" : "pcm-actuator"))
            }
        }
        let snapshot: (@Sendable () -> Void)? = liveView.map { view in { @Sendable in view.capture() } }
        var announced = false
        let frame = {
            // Logged once the first deadline has passed, so a script (or test) knows output is under way.
            if !announced, let first = session.firstDeadline, clock.now >= first {
                announced = true
                log.info("playback under way")
            }
            liveView?.draw()
        }
        let report: PlaybackReport
        do {
            report = try session.play(
                content.items.map(\.playbackItem),
                options: PlaybackSession.Options(loop: loop, rate: rate, frameInterval: fast ? Self.fastStep : LiveView.frameInterval),
                stopRequested: { signals.received != nil }, snapshot: snapshot, frame: frame
            )
        } catch {
            liveView?.finish()
            throw error
        }
        liveView?.finish()

        let summary = PlaySummary(board: board, targets: targets, report: report, stoppedBy: signals.received)
        if options.json { try printJSON(summary) } else { print(summary.text) }
        if let signal = signals.received { throw CommandTermination(signal: signal) }
    }

    /// Opens and closes a real PCM actuator's device, so a missing or busy device is reported as
    /// such before playing: it opens only at wake, inside the engine, whose stop reason (device
    /// lost) would not say why. Nothing to do for chips (their bus opened with the board) or
    /// simulated devices.
    private func checkDeviceOpens(_ target: BoardActuator, on board: CommandBoard) throws {
        guard target.pcm != nil, board.simulatedPCM(of: target) == nil else { return }
        try target.actuator.wake()
        try target.actuator.sleep()
    }

    /// The sound output: the board's `audio:`; on a simulated board without one, a simulated
    /// device, so the summary can say when each sound's first sample left it against its haptic
    /// deadline. A simulated `audio:` beside real actuators plays nothing: a device on virtual
    /// time would not keep time with them.
    private func openSound(on board: CommandBoard, clock: any MonotonicClock, soundsIn folder: URL) throws -> EngineAudio? {
        let simulatedAudio = board.board.audioDevice.map(board.hardware.isSimulated) ?? true
        if board.simulatedClock == nil {
            return simulatedAudio ? nil : try board.opened.openSoundOutput(soundsIn: folder, clock: clock)
        }
        if let output = try board.opened.openSoundOutput(soundsIn: folder, clock: clock) { return output }
        return try board.opened.openSoundOutput(device: Board.simName, format: Self.simulatedSoundFormat, soundsIn: folder, clock: clock)
    }
}
