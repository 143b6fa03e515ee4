import ActuatorHAL
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Plays haptic patterns on a board's actuators with Core Haptics semantics: players scheduled on
/// a `DeadlineScheduler`, power managed ahead of content, and every actuator left stopped and in
/// standby when playback stops, is cancelled or fails.
///
/// The engine does not run the scheduler: its owner calls `scheduler.startThread()` in a program,
/// or `scheduler.run(until:)` on a virtual clock in tests. Every scheduled action and every public
/// call takes the engine's lock, so the timing thread and the application never touch a bus at the
/// same time; handlers run after the lock is released.
///
/// Times (`currentTime`, `atTime:`) are seconds on the engine's clock; 0 means "as soon as the
/// actuators can play": now plus the time to wake and prepare them (see `startLead`).
public final class HapticEngine: @unchecked Sendable {
    /// The clock deadlines are computed on (the scheduler's clock).
    public let clock: any MonotonicClock
    /// The scheduler every command goes through.
    public let scheduler: DeadlineScheduler
    /// The compiler settings used for each actuator (its mode-switch cost is the actuator's own).
    public let compilerOptions: CompilerOptions

    let channels: [ActuatorChannel]
    private let lock = Lock(recursive: true)
    private var lockDepth = 0
    private var deferredCallbacks: [() -> Void] = []
    /// A command scheduled in the current locked section was already due: it runs on the caller's
    /// thread once the section ends (the scheduler's immediate path), not inside the section, where
    /// it would run before the caller finished its own bookkeeping.
    private var hasDueCommands = false
    /// Commands queued under the lock whose wake-up of the timing thread waits for its release.
    private var hasQueuedCommands = false
    /// Failures of commands run by the direct path in the current locked section, with their cost
    /// keys: handled once the section ends, before anything due runs.
    private var directFaults: [(error: any Error, costKey: CostKey)] = []
    private var nextPlayerID = 0
    /// Players with pending or sounding output.
    var activePlayers: [Int: HapticPatternPlayer] = [:]
    private var running = false
    private var transitions: [RecordedPowerTransition] = []
    private var driveLimits: [DriveLimitEvent] = []

    /// Called when the engine stopped on its own; not when the application called `stop`, nor
    /// after a fault it kept to some of the actuators (`actuatorFaultHandler`).
    public var stoppedHandler: (@Sendable (StoppedReason) -> Void)?
    /// Called after the engine re-initialised a chip (a fault forced a power cycle): players
    /// created before must be recreated; patterns survive.
    public var resetHandler: (@Sendable () -> Void)?
    /// Called after a fault on some of the actuators, which the engine handled without stopping
    /// (see `handleFault`): the players using them have ended, the others play on.
    public var actuatorFaultHandler: (@Sendable (ActuatorFaultReport) -> Void)?
    /// Called once every player has finished; its answer decides whether the engine stops.
    public var notifyWhenPlayersFinished: (@Sendable ((any Error)?) -> FinishedAction)?
    /// Called when the continuous-drive limit cut an actuator's output.
    public var driveLimitHandler: (@Sendable (DriveLimitEvent) -> Void)?
    /// Called after every power transition, with its report (outside the engine's lock).
    public var powerTransitionHandler: (@Sendable (RecordedPowerTransition) -> Void)?

    /// How many power transitions and drive-limit cuts the engine keeps for `powerTransitions` and
    /// `driveLimitEvents`: the newest, so an engine that runs for months does not grow.
    public static let recordedHistoryLimit = 4_096

    /// Audio events are removed before compiling instead of being reported as not played.
    public var playsHapticsOnly: Bool {
        get { locked { playsHapticsOnlyValue } }
        set { locked { playsHapticsOnlyValue = newValue } }
    }
    private var playsHapticsOnlyValue = false { didSet { compileSettingsChanged() } }

    /// Haptic events are removed before compiling: players play their content's sound only, and
    /// the actuators stay as they are (Core Haptics' `playsAudioOnly`, for a board whose sound
    /// output should play while its actuators rest). Without a sound output nothing plays.
    public var playsAudioOnly: Bool {
        get { locked { playsAudioOnlyValue } }
        set { locked { playsAudioOnlyValue = newValue } }
    }
    private var playsAudioOnlyValue = false { didSet { compileSettingsChanged() } }

    /// No haptic output: players keep time but write zero amplitude and trigger nothing.
    /// A write that fails (the level cannot be changed) is a fault like any action's: the engine
    /// stops and reports it (`lastFault`, `stoppedHandler`).
    public var isMutedForHaptics: Bool {
        get { locked { mutedForHaptics } }
        set {
            locked {
                mutedForHaptics = newValue
                for channel in channels where !channel.activePlayers.isEmpty {
                    writeMixReportingFaults(on: channel)
                }
            }
        }
    }
    private var mutedForHaptics = false

    /// Audio events are muted. Actuators never render audio events (the compiler leaves them out),
    /// so this removes them before compiling, like `playsHapticsOnly`.
    public var isMutedForAudio: Bool {
        get { locked { mutedForAudio } }
        set {
            locked {
                mutedForAudio = newValue
                audioOutput?.output.isMuted = newValue
            }
        }
    }
    private var mutedForAudio = false { didSet { compileSettingsChanged() } }
    /// The sound output (`attachAudio(_:)`).
    var audioOutput: EngineAudio? { didSet { compileSettingsChanged() } }
    /// Counts changes of the settings `compile(_:for:)` reads, so that a program compiled earlier
    /// can tell it is out of date (`HapticPatternPlayer.compiledProgramsAreCurrent`).
    private(set) var compileSettingsGeneration = 0

    /// Stop on its own (reason `.idleTimeout`) once every actuator has slept after its idle
    /// timeout, and start again when a player starts.
    public var isAutoShutdownEnabled: Bool {
        get { locked { autoShutdown } }
        set { locked { autoShutdown = newValue } }
    }
    private var autoShutdown = false

    /// Actuators the hardware can start together: a trigger or amplitude due on several of them at
    /// one instant goes to the synchronizer as one action instead of one action per actuator.
    let synchronizers: [any ActuatorSynchronizer]

    /// An engine driving `actuators` (names must be unique; later duplicates are ignored), starting
    /// content due on several at once together where `synchronizers` can. The engine takes the
    /// scheduler's `errorHandler`: action errors are its faults to handle.
    public init(
        actuators: [EngineActuator], clock: any MonotonicClock, scheduler: DeadlineScheduler, compilerOptions: CompilerOptions = CompilerOptions(),
        synchronizers: [any ActuatorSynchronizer] = []
    ) {
        var seen = Set<String>()
        channels = actuators.filter { seen.insert($0.name).inserted }.map { ActuatorChannel($0, options: compilerOptions) }
        self.synchronizers = synchronizers
        self.clock = clock
        self.scheduler = scheduler
        self.compilerOptions = compilerOptions
        scheduler.errorHandler = { [weak self] error, costKey in
            self?.handleFault(error, costKey: costKey)
        }
    }

    /// An engine driving named actuators with default idle timeouts and their own drive limits.
    public convenience init(actuators: [String: any Actuator], clock: any MonotonicClock, scheduler: DeadlineScheduler) {
        self.init(
            actuators: actuators.sorted { $0.key < $1.key }.map { EngineActuator($0.value, name: $0.key) },
            clock: clock, scheduler: scheduler
        )
    }

    deinit {
        guard running else { return }
        for channel in channels { _ = makeSafe(channel) }
        stoppedHandler?(.engineDestroyed)
    }

    // MARK: Lifecycle

    /// Whether the engine is running.
    public var isRunning: Bool { locked { running } }

    /// Starts the engine; touches no hardware (actuators wake ahead of the first content).
    public func start() throws {
        locked {
            running = true
            serviceAudio()
        }
    }

    /// Stops every player and leaves every actuator stopped and in standby (EN low when the bus
    /// fails); then arms the idle sleep. `completion` gets the first actuator error, if any.
    /// `stoppedHandler` is not called.
    public func stop(completion: (@Sendable ((any Error)?) -> Void)? = nil) {
        let error = locked { () -> (any Error)? in
            running = false
            return haltEverything()
        }
        completion?(error)
    }

    /// Drops every pending command, then `stop()`: for a process that is about to exit (a
    /// termination signal), when nothing scheduled may run any more.
    @Sendable public func stopAtOnce() {
        scheduler.cancelAll()
        stop()
    }

    /// Seconds on the engine's clock.
    public var currentTime: Double { clock.now.seconds }

    // MARK: Actuators

    /// The actuators' names, in the order given.
    public var actuatorNames: [String] { channels.map(\.name) }

    /// Each actuator's power state, by name.
    public var actuatorStates: [String: PowerState] {
        locked { Dictionary(channels.map { ($0.name, $0.actuator.powerState) }, uniquingKeysWith: { first, _ in first }) }
    }

    /// What each actuator can do, by name.
    public var capabilities: [String: ActuatorCapabilities] {
        locked { Dictionary(uniqueKeysWithValues: channels.map { ($0.name, $0.compiler.capabilities) }) }
    }

    /// Whether any actuator plays haptics (every actuator does) — Core Haptics' `supportsHaptics`.
    public var supportsHaptics: Bool { !channels.isEmpty }

    /// Whether any actuator is driven as audio — Core Haptics' `supportsAudio`.
    public var supportsAudio: Bool { channels.contains { $0.compiler.capabilities.supportsPCM } }

    /// Lets go of the programs kept for content played before (at most 64 short ones per
    /// actuator, so that content played again is not compiled again): the next play of that
    /// content compiles it anew. A soak measuring the heap at rest counts the cache out this way,
    /// as its fill depends on what played last.
    func dropCachedPrograms() {
        locked { channels.forEach { $0.dropCachedPrograms() } }
    }

    /// The power transitions the engine made or was asked for, oldest first (the newest
    /// `recordedHistoryLimit`).
    public var powerTransitions: [RecordedPowerTransition] { locked { transitions } }

    /// The cuts by the continuous-drive limit, oldest first (the newest `recordedHistoryLimit`).
    public var driveLimitEvents: [DriveLimitEvent] { locked { driveLimits } }

    /// The error behind the last fault: a stop the engine made on its own (`stoppedHandler` with
    /// `.systemError` or `.deviceLost`) or one it kept to some actuators (`actuatorFaultHandler`)
    /// — a bus error, a fault the chip reported (`HapticEngineError.actuatorFault`), a write that
    /// failed while muting. Read it in the handler to say what happened.
    public var lastFault: (any Error)? { locked { fault } }
    private var fault: (any Error)?

    func recordFault(_ error: any Error) {
        fault = error
    }

    /// Scheduled actions the engine ran on its own to watch the hardware while content played
    /// (fault polls, ROM sequences polled to their end): not the content's commands.
    public var monitoringActionCount: Int { locked { monitoringActions } }
    var monitoringActions = 0

    /// Scheduled actions that handed a player's next planned commands to the scheduler (a long
    /// pattern is scheduled a window at a time): bookkeeping, not the content's commands.
    public var planRefillCount: Int { locked { planRefills } }
    var planRefills = 0

    // MARK: Players

    /// A player for `pattern` on the actuator named `actuator`, or on every actuator when nil.
    public func makePlayer(with pattern: HapticPattern, on actuator: String? = nil) throws -> HapticPatternPlayer {
        prerenderAudio(pattern)
        let (id, selected) = try prepareNewPlayer(on: actuator)
        return HapticPatternPlayer(engine: self, id: id, pattern: pattern, channels: selected)
    }

    /// An advanced player (loop, rate, pause/resume, seek, completion) for `pattern`.
    public func makeAdvancedPlayer(with pattern: HapticPattern, on actuator: String? = nil) throws -> HapticAdvancedPatternPlayer {
        prerenderAudio(pattern)
        let (id, selected) = try prepareNewPlayer(on: actuator)
        return HapticAdvancedPatternPlayer(engine: self, id: id, pattern: pattern, channels: selected)
    }

    /// Loads a content file (any format `ContentLoader` reads) and plays it at once on every actuator.
    @discardableResult
    public func playPattern(from url: URL) throws -> HapticPatternPlayer {
        let content: LoadedContent
        do {
            content = try ContentLoader.load(contentsOf: url)
        } catch {
            throw HapticEngineError.content(error)
        }
        return try play(content.pattern)
    }

    /// Plays AHAP data at once on every actuator.
    @discardableResult
    public func playPattern(from data: Data) throws -> HapticPatternPlayer {
        guard let text = String(data: data, encoding: .utf8) else { throw HapticEngineError.unreadableData }
        let content: LoadedContent
        do {
            content = try ContentLoader.parse(text, format: .ahap, file: "<data>")
        } catch {
            throw HapticEngineError.content(error)
        }
        return try play(content.pattern)
    }

    private func play(_ pattern: HapticPattern) throws -> HapticPatternPlayer {
        let player = try makePlayer(with: pattern)
        try player.start(atTime: 0)
        return player
    }

    private func prepareNewPlayer(on actuator: String?) throws -> (Int, [ActuatorChannel]) {
        try locked {
            guard !channels.isEmpty else { throw HapticEngineError.noActuators }
            var selected = channels
            if let actuator {
                guard let channel = channels.first(where: { $0.name == actuator }) else {
                    throw HapticEngineError.unknownActuator(actuator, known: actuatorNames)
                }
                selected = [channel]
            }
            nextPlayerID += 1
            return (nextPlayerID, selected)
        }
    }

    /// The program actuator `actuator` would play `pattern` as — what a player made now
    /// compiles, after the engine's audio settings — without making a player.
    public func program(for pattern: HapticPattern, on actuator: String) throws -> ActuatorProgram {
        try locked {
            guard let channel = channels.first(where: { $0.name == actuator }) else {
                throw HapticEngineError.unknownActuator(actuator, known: actuatorNames)
            }
            return compile(pattern, for: channel)
        }
    }

    /// The pattern as compiled for `channel`, after the engine's audio settings: the one place
    /// content is compiled. `ahead`, from `compileAhead`, is used when nothing it depends on changed.
    func compile(_ pattern: HapticPattern, for channel: ActuatorChannel, ahead: CompiledAhead? = nil) -> ActuatorProgram {
        let program = channel.program(for: compilable(pattern), ahead: ahead?.settingsGeneration == compileSettingsGeneration ? ahead : nil)
        return playsHapticsOnlyValue ? program : extendedToItsSounds(program, of: pattern)
    }

    /// `pattern` as the engine's audio settings leave it for an actuator to compile.
    private func compilable(_ pattern: HapticPattern) -> HapticPattern {
        var pattern = pattern
        // With a sound output attached, audio events play there rather than being reported as not played.
        if playsHapticsOnlyValue || mutedForAudio || audioOutput != nil {
            pattern.events.removeAll { !$0.type.isHaptic }
        }
        if playsAudioOnlyValue {
            pattern.events.removeAll { $0.type.isHaptic }
        }
        return pattern
    }

    /// `pattern` compiled for each of `channels` that has not kept its program, outside the
    /// engine's lock: compiling new content takes milliseconds (a 30 s AHAP with curves, 4 ms on
    /// a 2-core VM), and the timing thread takes the lock to run every actuator's commands, so a
    /// compile under it holds up every stream on the board. The settings and compilers read
    /// under the lock are checked again when the programs are used (`compile(_:for:ahead:)`).
    /// Called without the lock held; under it, nothing is compiled ahead. A caller on a real-time
    /// thread compiles a long pattern at ordinary priority (`BelowRealTime`).
    func compileAhead(_ pattern: HapticPattern, for channels: [ActuatorChannel]) -> [String: CompiledAhead] {
        typealias Work = (name: String, pattern: HapticPattern, compiler: PatternCompiler, generation: Int)
        let (work, settings): ([Work], Int) = locked {
            // Deeper than 1: the caller holds the lock, which compiling here would not release.
            guard lockDepth == 1 else { return ([], 0) }
            let compilable = compilable(pattern)
            return (channels.compactMap { channel in
                channel.compilerIfNotKept(for: compilable).map { (channel.name, compilable, $0.compiler, $0.generation) }
            }, compileSettingsGeneration)
        }
        func compile() -> [String: CompiledAhead] {
            var ahead: [String: CompiledAhead] = [:]
            for item in work {
                ahead[item.name] = CompiledAhead(pattern: item.pattern, compilerGeneration: item.generation, settingsGeneration: settings,
                                                 program: item.compiler.compile(item.pattern))
            }
            return ahead
        }
        // A long compile has no deadline: never at the caller's real-time priority.
        return work.first?.pattern.compilesLong == true ? BelowRealTime.run(compile) : compile()
    }

    private func compileSettingsChanged() {
        compileSettingsGeneration += 1
    }

    /// Throws unless the engine runs; restarts it when auto-shutdown stopped it.
    func requireRunning() throws {
        if !running, autoShutdown { running = true }
        guard running else { throw HapticEngineError.engineNotRunning }
    }

    /// The instant `time` (engine seconds) names; 0 = the earliest instant every channel can play.
    func instant(forTime time: Double, on channels: [ActuatorChannel]) throws -> MonotonicInstant {
        guard time.isFinite, time >= 0 else { throw HapticEngineError.invalidTime(time) }
        if time == 0 { return earliestStart(on: channels) }
        return MonotonicInstant(nanoseconds: Int64((time * 1e9).rounded()))
    }

    /// Now plus the longest start lead of `channels`. A loop, not `map` and `max`: the array
    /// `map` made was an allocation in every start before its first write, and this took 907
    /// instructions instead of 428 (callgrind, `hotpath-profile start`).
    func earliestStart(on channels: [ActuatorChannel]) -> MonotonicInstant {
        var longest = Duration.zero
        for channel in channels { longest = max(longest, channel.startLead) }
        return clock.now + longest
    }

    /// The engine instant for `time` seconds (0 = as soon as every actuator can play), for Piano.
    func earliestStart(forActuator name: String?) -> MonotonicInstant {
        locked { earliestStart(on: channels.filter { name == nil || $0.name == name }) }
    }

    // MARK: Locking

    /// Runs `body` under the engine's lock; handlers queued with `later` run once the outermost
    /// locked section has released the lock.
    func locked<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock.lock()
        lockDepth += 1
        defer {
            lockDepth -= 1
            var callbacks: [() -> Void] = []
            var faults: [(error: any Error, costKey: CostKey)] = []
            var (runDueCommands, wakeScheduler) = (false, false)
            if lockDepth == 0 {
                swap(&callbacks, &deferredCallbacks)
                swap(&faults, &directFaults)
                (runDueCommands, wakeScheduler) = (hasDueCommands, hasQueuedCommands)
                (hasDueCommands, hasQueuedCommands) = (false, false)
            }
            lock.unlock()
            // As the scheduler hands a failed command's error over before it runs the next one.
            for fault in faults { handleFault(fault.error, costKey: fault.costKey) }
            if runDueCommands { scheduler.runDueCommandsOnCaller() }
            // After the due commands: a start's first write does not wait for the timing thread's wake-up.
            if wakeScheduler { scheduler.wakeTimingThreadIfOwed() }
            for callback in callbacks { callback() }
        }
        return try body()
    }

    /// Queues a command on the scheduler; one already due runs when the outermost locked section
    /// ends. Call under the lock.
    func enqueue(at deadline: MonotonicInstant, class commandClass: CommandClass, costKey: CostKey, expectedCost: Duration, action: ScheduledAction) -> ScheduledToken {
        let (token, isDue) = scheduler.enqueue(at: deadline, class: commandClass, costKey: costKey, expectedCost: expectedCost, action: action, deferringWake: true)
        if isDue { hasDueCommands = true } else { hasQueuedCommands = true }
        return token
    }

    /// Takes the scheduler's dispatch role for a direct run of commands due now
    /// (`DeadlineScheduler.beginDirectDispatch`); false when they must be queued. Call under the lock.
    func beginDirectRun() -> Bool {
        scheduler.beginDirectDispatch()
    }

    /// Gives back the dispatch role a direct run took (`DeadlineScheduler.beginDirectDispatch`).
    /// What another thread queued meanwhile, already due, was left to the role's holder: it runs
    /// once the outermost locked section ends. Call under the lock.
    func endDirectRun() {
        scheduler.endDirectDispatch()
        hasDueCommands = true
    }

    /// A command the direct path ran failed: handled (`handleFault`) once the outermost locked
    /// section ends, before anything due runs. Call under the lock.
    func directRunFailed(_ error: any Error, costKey: CostKey) {
        directFaults.append((error, costKey))
    }

    /// Queues a handler call until the lock is released.
    func later(_ callback: @escaping () -> Void) {
        deferredCallbacks.append(callback)
    }

    func record(_ report: PowerTransitionReport, on channel: ActuatorChannel, automatic: Bool) {
        guard report.from != report.to || report.elapsed > .zero else { return }
        let recorded = RecordedPowerTransition(actuator: channel.name, report: report, automatic: automatic)
        transitions.append(recorded)
        if transitions.count > Self.recordedHistoryLimit { transitions.removeFirst(transitions.count - Self.recordedHistoryLimit) }
        if let handler = powerTransitionHandler { later { handler(recorded) } }
    }

    func recordDriveLimit(_ event: DriveLimitEvent) {
        driveLimits.append(event)
        if driveLimits.count > Self.recordedHistoryLimit { driveLimits.removeFirst(driveLimits.count - Self.recordedHistoryLimit) }
        if let handler = driveLimitHandler { later { handler(event) } }
    }

    func setRunning(_ value: Bool) {
        running = value
    }

    var isRunningUnlocked: Bool { running }
}
