import ActuatorHAL
import FoundationEssentials

/// Plays content on a board's actuators, one item after the other (again and again with
/// `loop`), with the board's sound output, power management and a report at the end: what
/// `hapticboard play` does, for firmware and services to do the same.
///
/// ```swift
/// let board = try Board.named("sim").open(on: SimulatedBoardHardware())
/// defer { board.close() }
/// let session = PlaybackSession(board: board, pace: .stepped)
/// let report = try session.play([.init(name: "tap", content: try ContentLoader.load(contentsOf: url), soundFolder: folder)])
/// ```
///
/// Whatever ends the playback — its end, a stop request, a thrown error — `play` leaves every
/// actuator stopped and in standby and the timing thread stopped.
///
/// Two paces: `.threaded` runs the scheduler's timing thread on the clock (real hardware, or a
/// virtual clock paced to the wall clock) while the calling thread waits in frame-long slices;
/// `.stepped` runs the scheduler on the calling thread with `run(until:)`, so a virtual clock
/// whose sleeps advance time plays as fast as possible.
public final class PlaybackSession {
    /// How the scheduler runs.
    public enum Pace {
        /// On its own timing thread, set up by `setup` (real-time priority, locked memory on Linux).
        case threaded(any TimingThreadSetup)
        /// On the calling thread, as fast as the clock allows.
        case stepped
    }

    /// One thing to play.
    public struct Item {
        /// What to call it in the report and in warnings.
        public var name: String
        public var content: LoadedContent
        /// Where its sounds (AudioCustom waveforms) resolve.
        public var soundFolder: URL

        public init(name: String, content: LoadedContent, soundFolder: URL) {
            self.name = name
            self.content = content
            self.soundFolder = soundFolder
        }

        /// Piano-style notes (ROM effects on a chip with a library, events elsewhere); their
        /// sounds resolve in `soundFolder`.
        public init(name: String, notes: [Note], soundFolder: URL = URL(fileURLWithPath: ".")) {
            self.init(name: name, content: LoadedContent(format: .notes, pattern: HapticPattern(notes: notes)), soundFolder: soundFolder)
        }
    }

    /// How to play.
    public struct Options: Sendable {
        /// Play the items again and again until a stop is requested.
        public var loop = false
        /// 2 plays twice as fast. Sounds play only at rate 1 (see `EngineAudio`).
        public var rate = 1.0
        /// The first item starts at least this long after `play` begins, so the timing thread is
        /// running and the actuators awake before the first deadline; longer when an actuator's
        /// wake and prepare budgets are.
        public var startDelay = Duration.milliseconds(50)
        /// How often the calling thread looks for the end, a stop request and draws a frame.
        public var frameInterval = Duration.milliseconds(20)

        public init(loop: Bool = false, rate: Double = 1, startDelay: Duration = .milliseconds(50), frameInterval: Duration = .milliseconds(20)) {
            self.loop = loop
            self.rate = rate
            self.startDelay = startDelay
            self.frameInterval = frameInterval
        }
    }

    /// Errors the engine reports on its own.
    public enum Failure: Error, CustomStringConvertible {
        /// Why, and the fault behind it (a bus error, a fault the chip reported) when there is one.
        case engineStopped(HapticEngine.StoppedReason, fault: (any Error)?)

        public var description: String {
            switch self {
            case .engineStopped(let reason, let fault?): "the engine stopped (\(reason)): \(fault)"
            case .engineStopped(let reason, nil): "the engine stopped: \(reason)"
            }
        }
    }

    /// Added to the slowest actuator's wake and prepare budgets when they exceed `startDelay`
    /// (a PCM device takes up to 50 ms to open), so the wake is not dispatched late.
    public static let wakeMargin = Duration.milliseconds(2)
    /// How long after the last player ended `play` waits at most for sound to leave the device:
    /// its buffer plus a sound placed that late. Longer means a stalled device or timing thread;
    /// the rest is then dropped, and the report shows the sound's lateness.
    public static let soundPlayOutLimit = Duration.seconds(1)

    public let engine: HapticEngine
    public let scheduler: DeadlineScheduler
    public let clock: any MonotonicClock
    public let actuators: [BoardActuator]
    public let pace: Pace
    /// Whether the attached sound output is simulated (for the report).
    public private(set) var soundIsSimulated = false
    /// Warnings met while playing (each item's compile warnings, once): `item: warning`.
    public var warningHandler: ((String) -> Void)?
    /// The first item's start on `clock`, once `play` has chosen it.
    public private(set) var firstDeadline: MonotonicInstant?
    /// Actions the caller scheduled itself (`snapshot`), left out of the report's command count.
    private var auxiliaryActionCount = 0
    private let finished = FinishSignal()
    /// Why the engine stopped on its own (a device gone, a bus fault), kept apart from `finished`,
    /// which each item resets.
    private let engineStop = FinishSignal()
    private var wakeDone = false

    /// A session on `actuators` of `board` (by default all; each item plays on all of them, mixed
    /// per actuator), scheduling on `clock` (by default the board's) with `latePolicy`.
    public init(board: OpenedBoard, actuators: [BoardActuator]? = nil, clock: (any MonotonicClock)? = nil, pace: Pace, latePolicy: LatePolicy = LatePolicy()) {
        let targets = actuators ?? board.actuators
        self.actuators = targets
        self.clock = clock ?? board.clock
        self.pace = pace
        scheduler = DeadlineScheduler(clock: self.clock, latePolicy: latePolicy)
        engine = board.makeEngine(for: targets, scheduler: scheduler)
        let signal = finished, stop = engineStop
        let engine = self.engine
        engine.stoppedHandler = { [weak engine] reason in
            let failure = Failure.engineStopped(reason, fault: engine?.lastFault)
            stop.finish(failure)
            signal.finish(failure)
        }
    }

    /// Attaches the sound output the items' audio events play on (`simulated`: it plays on virtual
    /// time); nil plays the haptics only, as Core Haptics' `playsHapticsOnly` does.
    public func attachSound(_ audio: EngineAudio?, simulated: Bool = false) {
        engine.attachAudio(audio)
        engine.playsHapticsOnly = audio == nil
        soundIsSimulated = simulated
    }

    /// Starts the engine and wakes every actuator now, outside any timeline: a wake from off reads
    /// the registers back and may rewrite them, which on a slow bus or machine can outlast its
    /// budget, and the first effect would then be dropped as late. Afterwards content compiles
    /// against the chip that answered. `play` does it when the items have haptics.
    public func wake() throws {
        guard !wakeDone else { return }
        // Before `start`, which schedules the sound output's first service: a wake run after it
        // would make that action late.
        try engine.wakeActuators()
        try engine.start()
        wakeDone = true
    }

    /// Plays `items` in order and returns the report. `stopRequested` ends playback early (the
    /// report then covers what played); `frame` runs on the calling thread about every frame
    /// interval; `snapshot`, when given, runs just before it on the timing thread, where it
    /// cannot race the engine's bus traffic.
    public func play(
        _ items: [Item], options: Options = Options(), stopRequested: () -> Bool = { false },
        snapshot: (@Sendable () -> Void)? = nil, frame: (() -> Void)? = nil
    ) throws -> PlaybackReport {
        // Content of sounds only has nothing for the actuators: they stay as they are.
        if items.contains(where: { $0.content.pattern.events.contains { $0.type.isHaptic } }) { try wake() }
        try engine.start()
        startTimingThread()
        let start = clock.now + startDelay(options.startDelay)
        firstDeadline = start
        var passes = 0
        let elapsed: Duration
        do {
            passes = try playPasses(items, options: options, startingAt: start, stopRequested: stopRequested, snapshot: snapshot, frame: frame)
            elapsed = max(.zero, clock.now - start)
            try letSoundPlayOut(stopRequested: stopRequested)
        } catch {
            // Whatever failed, the actuators must not keep driving.
            try? finish()
            throw cause(of: error)
        }
        try finish()
        return report(items: items, passes: passes, elapsed: elapsed, start: start)
    }

    /// A call refused because the engine had stopped on its own is reported with why it stopped:
    /// the stop can fall between an item's start and the last wait (the sound card unplugged
    /// while a pass begins), and "the engine is stopped" alone would hide the device.
    private func cause(of error: any Error) -> any Error {
        if case HapticEngineError.engineNotRunning = error, case .some(.some(let stop)) = engineStop.outcome { return stop }
        return error
    }

    /// How far ahead the first item starts: the engine wakes and prepares each actuator by its
    /// budgets ahead of the first event, which must not lie in the past.
    public func startDelay(_ minimum: Duration) -> Duration {
        let lead = actuators.map { $0.actuator.budget(for: .wake) + $0.actuator.budget(for: .prepare) }.max() ?? .zero
        return max(minimum, lead + Self.wakeMargin)
    }

    private func playPasses(
        _ items: [Item], options: Options, startingAt start: MonotonicInstant, stopRequested: () -> Bool,
        snapshot: (@Sendable () -> Void)?, frame: (() -> Void)?
    ) throws -> Int {
        let actuatorName = actuators.count == 1 ? actuators.first?.name : nil
        var passes = 0
        var firstStart: MonotonicInstant? = start
        repeat {
            passes += 1
            for item in items {
                pointSounds(at: item.soundFolder)
                let player = try engine.makeAdvancedPlayer(with: item.content.pattern, on: actuatorName)
                if passes == 1 { report(warningsOf: player, item: item) }
                try player.setPlaybackRate(options.rate)
                player.loopEnabled = options.loop && items.count == 1
                let signal = finished
                signal.reset()
                player.completionHandler = { error in signal.finish(error) }
                try player.start(atTime: firstStart.map(\.seconds) ?? 0)
                firstStart = nil
                guard try wait(frameInterval: options.frameInterval, stopRequested: stopRequested, snapshot: snapshot, frame: frame) else { return passes }
            }
        } while options.loop
        return passes
    }

    /// Each actuator's compile warnings for `item`, once each.
    private func report(warningsOf player: HapticAdvancedPatternPlayer, item: Item) {
        guard let warningHandler else { return }
        var seen = Set<String>()
        for name in actuators.map(\.name) {
            for warning in player.programs[name]?.warnings ?? [] where seen.insert("\(warning)").inserted {
                warningHandler("\(item.name): \(warning)")
            }
        }
    }

    /// Makes waveform paths resolve in `folder` (each item names its own sounds); the decoded
    /// sounds are kept while the folder stays the same.
    private func pointSounds(at folder: URL) {
        guard let audio = engine.audio else { return }
        let wanted = folder.absoluteURL
        guard wanted.standardizedFileURL != audio.sounds.folder.standardizedFileURL else { return }
        audio.sounds = SoundLibrary(decoder: audio.sounds.decoder, sampleRate: audio.sounds.sampleRate, folder: wanted)
    }

    /// Starts the timing thread and waits (at most `timeout` of wall time) until it has finished
    /// its real-time set-up, so the first deadline is chosen after that start-up — locking the
    /// process's memory takes a while on a small board or an emulated one — rather than raced by it.
    private func startTimingThread(timeout: TimeInterval = 30) {
        guard case .threaded(let setup) = pace else { return }
        scheduler.startThread(setup: setup)
        let giveUp = Date(timeIntervalSinceNow: timeout)
        while !scheduler.isThreadReady, Date() < giveUp {
            FinishSignal().wait(for: .milliseconds(1))
        }
    }

    /// Waits until every sound has left the device (`HapticEngine.soundHasPlayedOut`), at most
    /// `soundPlayOutLimit`, so `finish` — which drops whatever the device still holds — never cuts
    /// the end of the last sound. A stop request ends the wait at once.
    private func letSoundPlayOut(stopRequested: () -> Bool) throws {
        guard let format = engine.audio?.output.sink.format else { return }
        let slice = format.duration(ofFrames: format.periodFrames)
        let giveUp = clock.now + Self.soundPlayOutLimit
        while try !engine.soundHasPlayedOut(), !stopRequested(), clock.now < giveUp {
            advance(by: slice)
        }
    }

    /// Stops every player, leaves the actuators stopped and in standby, and stops the timing
    /// thread. `play` does it at its end; call it after `wake` when not playing after all.
    public func finish() throws {
        let stopped = FinishSignal()
        engine.stop { error in stopped.finish(error) }
        scheduler.stopThread()
        if case .some(.some(let error)) = stopped.outcome { throw error }
    }

    /// Waits for the current player to finish; false when a stop was requested first. A player the
    /// engine cut (a bus error, a fault) ends the wait with its error.
    private func wait(frameInterval: Duration, stopRequested: () -> Bool, snapshot: (@Sendable () -> Void)?, frame: (() -> Void)?) throws -> Bool {
        while true {
            if stopRequested() { return false }
            if let outcome = finished.outcome {
                if let error = outcome { throw error }
                return true
            }
            if case .threaded = pace, let snapshot {
                auxiliaryActionCount += 1
                scheduler.schedule(at: clock.now, class: .housekeeping, costKey: "live-view") { snapshot() }
            }
            advance(by: frameInterval)
            frame?()
        }
    }

    /// Lets `duration` pass: runs the scheduler that long when stepped, waits when threaded (or
    /// until the current player finishes).
    private func advance(by duration: Duration) {
        switch pace {
        case .stepped: scheduler.run(until: clock.now + duration)
        case .threaded: finished.wait(for: duration)
        }
    }

    private func report(items: [Item], passes: Int, elapsed: Duration, start: MonotonicInstant) -> PlaybackReport {
        let metrics = scheduler.metrics
        let calibrated = actuators.filter { $0.drv2605?.calibration != nil }.count
        return PlaybackReport(
            actuators: actuators.map(\.name),
            content: items.map(\.name),
            events: items.reduce(0) { $0 + $1.content.pattern.events.count },
            passes: passes,
            commands: metrics.dispatched - auxiliaryActionCount - engine.monitoringActionCount - engine.planRefillCount,
            statusReads: engine.monitoringActionCount,
            late: metrics.lateness.estimatedCount(above: PlaybackReport.lateTolerance),
            dropped: metrics.droppedLate + metrics.resynced,
            maximumLatenessMicroseconds: TransitionRecord.microseconds(metrics.lateness.maximum),
            p99LatenessMicroseconds: TransitionRecord.microseconds(metrics.lateness.percentile(99)),
            elapsedSeconds: elapsed.secondsValue,
            transitions: TransitionTally.tallies(engine.powerTransitions.map(\.report)),
            calibration: calibrated == 0 ? "none" : calibrated == actuators.count ? "stored" : "stored for \(calibrated) of \(actuators.count)",
            audio: engine.audio.map { SoundReport($0, simulated: soundIsSimulated, start: start) }
        )
    }
}

/// How the current player ended, handed from the engine's handler thread to the waiting one.
private final class FinishSignal: @unchecked Sendable {
    private let condition = ConditionLock()
    /// nil: still playing; `.some(nil)`: ended; `.some(error)`: cut by the engine.
    private var state: (any Error)??

    var outcome: (any Error)?? {
        condition.withLock { state }
    }

    func reset() {
        condition.withLock { state = nil }
    }

    func finish(_ error: (any Error)?) {
        condition.withLock {
            if state == nil { state = .some(error) }
            condition.broadcast()
        }
    }

    /// Waits up to `duration` of wall time for `finish`.
    func wait(for duration: Duration) {
        condition.withLock {
            guard state == nil else { return }
            _ = condition.wait(until: ConditionLock.monotonicNow + duration)
        }
    }
}
