import ActuatorHAL

/// The engine's per-actuator state: the driver, its compiler, the players' mix, idle timers and
/// the continuous-drive guard. Only touched under the engine's lock.
final class ActuatorChannel {
    let name: String
    let actuator: any Actuator
    let idleTimeouts: IdleTimeouts
    /// The compiler for the actuator as it is now: a DRV2605 identifies its variant when it wakes,
    /// so content is compiled against the chip that answered, not the one the board file names.
    var compiler: PatternCompiler {
        var capabilities = actuator.capabilities
        capabilities.maximumContinuousDrive = maximumContinuousDrive
        if capabilities != compiled.capabilities {
            compiled = PatternCompiler(capabilities: capabilities, options: compiled.options)
            compilerGeneration += 1
            programs.removeAll()
        }
        return compiled
    }
    private var compiled: PatternCompiler
    /// Counts the compilers replaced, so that a program compiled by an earlier one can tell.
    private(set) var compilerGeneration = 0
    /// Programs compiled by the current compiler, by pattern: a service trigger, a button's
    /// binding or a game's effect plays the same content again and again, and compiling it costs
    /// far more than hashing it. Short programs of small patterns only (`mayKeep`), and at most
    /// `cachedProgramLimit` of them, so the cache stays small however much content passes through.
    @exclusivity(unchecked) private var programs: [HapticPattern: ActuatorProgram] = [:]
    /// Patterns compiled rather than found in `programs` (for tests).
    private(set) var compilations = 0
    /// Of those, the ones compiled outside the engine's lock (for tests).
    private(set) var compiledAhead = 0
    static let cachedProgramLimit = 64
    static let cachedProgramCommands = 512

    /// Whether `pattern`'s program may be kept: at most `cachedProgramCommands` events, dynamic
    /// parameters and control points. Hashing a pattern reads all of it, and a larger one — a
    /// game's 10 s periodic effect is a curve of 10,000 points, a long AHAP file thousands of
    /// events — nearly always compiles to more commands than are kept: looking it up, twice per
    /// play, took 6 % of the instructions of such an upload and never found it.
    static func mayKeep(_ pattern: HapticPattern) -> Bool {
        var elements = pattern.events.count + pattern.parameters.count
        for curve in pattern.parameterCurves {
            elements += curve.controlPoints.count
            if elements > cachedProgramCommands { return false }
        }
        return elements <= cachedProgramCommands
    }
    private let maximumContinuousDrive: Duration?
    // `@exclusivity(unchecked)` on the state every command of every player reads or changes: as
    // on `DeadlineScheduler.pending`, the run-time check sees one thread at a time, and these
    // accesses call only value-type code, so none can begin inside another.
    @exclusivity(unchecked) var mixer: AmplitudeMixer
    /// Players with commands pending or output on this actuator.
    @exclusivity(unchecked) var activePlayers: ActivePlayerIDs = []
    /// Pending automatic standby and sleep.
    @exclusivity(unchecked) var idleTokens: [ScheduledToken] = []
    /// How often the status is read while players use the actuator; nil: never.
    let statusPollInterval: Duration?
    /// The next status read, while players use the actuator.
    var statusPollToken: ScheduledToken?
    /// A ROM trigger was issued and nothing has stopped it since: the chip may still be playing.
    var sequenceMayRun = false
    @exclusivity(unchecked) var driveGuard: ContinuousDriveGuard
    /// The bus time of one register write, of a stop and of a ROM start, read once: an
    /// actuator's capabilities are computed afresh on every read, and none changes while the bus
    /// stays the same.
    private let writeCost: Duration
    private let stopCost: Duration
    private let romTriggerCost: ROMTriggerCost
    /// The status poll's expected bus cost, the seed of its learned lead: three writes' time, what
    /// a DRV2605's look while it plays takes (STATUS with MODE in one read, then GO).
    let statusReadCost: Duration
    /// The cost keys of this actuator's commands and of the engine's actions on it, made once.
    let keys: ChannelCommandKeys

    init(_ engineActuator: EngineActuator, options: CompilerOptions) {
        name = engineActuator.name
        actuator = engineActuator.actuator
        idleTimeouts = engineActuator.idleTimeouts
        statusPollInterval = engineActuator.statusPollInterval
        var options = options
        // Mode switches cost what the driver budgets for leaving standby into a mode.
        options.modeSwitchCost = actuator.budget(for: .prepare)
        var capabilities = actuator.capabilities
        capabilities.maximumContinuousDrive = engineActuator.maximumContinuousDrive
        maximumContinuousDrive = engineActuator.maximumContinuousDrive
        compiled = PatternCompiler(capabilities: capabilities, options: options)
        mixer = AmplitudeMixer(signed: capabilities.supportsSignedAmplitude)
        driveGuard = ContinuousDriveGuard(limit: engineActuator.maximumContinuousDrive)
        writeCost = capabilities.amplitudeUpdateCost
        romTriggerCost = capabilities.romTriggerCost
        statusReadCost = capabilities.amplitudeUpdateCost * 3
        stopCost = actuator.stopLead
        keys = ChannelCommandKeys(actuator: name)
    }

    /// The compiler as it is now and its generation, for compiling `pattern` outside the engine's
    /// lock (`HapticEngine.compileAhead`); nil when the program is kept already.
    func compilerIfNotKept(for pattern: HapticPattern) -> (compiler: PatternCompiler, generation: Int)? {
        let compiler = self.compiler
        return Self.mayKeep(pattern) && programs[pattern] != nil ? nil : (compiler, compilerGeneration)
    }

    /// `pattern` compiled for this actuator as it is now: kept, `ahead` when the current compiler
    /// made it outside the lock, or compiled now.
    func program(for pattern: HapticPattern, ahead: CompiledAhead? = nil) -> ActuatorProgram {
        let compiler = self.compiler
        let mayKeep = Self.mayKeep(pattern)
        if mayKeep, let program = programs[pattern] { return program }
        compilations += 1
        let program: ActuatorProgram
        if let ahead, ahead.compilerGeneration == compilerGeneration, ahead.pattern == pattern {
            compiledAhead += 1
            program = ahead.program
        } else {
            program = compiler.compile(pattern)
        }
        guard mayKeep, program.commands.count <= Self.cachedProgramCommands else { return program }
        if programs.count >= Self.cachedProgramLimit { programs.removeAll(keepingCapacity: true) }
        programs[pattern] = program
        return program
    }

    /// Empties the cache of programs (`HapticEngine.dropCachedPrograms`).
    func dropCachedPrograms() {
        programs.removeAll()
    }

    /// The scheduler learns bus costs per key: one key per actuator and kind of command.
    func costKey(_ action: String) -> CostKey { CostKey(action, actuator: name) }

    /// How long before its deadline a command is handed to the scheduler, in nanoseconds: PCM
    /// plays behind the device queue, so it is written that much early to start on its deadline;
    /// others at it. (Nanoseconds, not a Duration: asked at every command of a stream's plan, where
    /// a Duration's `.zero`, comparison and conversion were calls into the standard library.)
    func issueLead(of command: ActuatorCommand) -> Int64 {
        if case .pcm = command { return actuator.pcmOutputLatency.nanoseconds }
        return 0
    }

    /// Key and expected bus time of a command (before the scheduler has measured any).
    func cost(of command: ActuatorCommand) -> (key: CostKey, expected: Duration) {
        switch command {
        // A prepare scheduled while the actuator is already ready may find it in the right mode and
        // cost nothing: it learns its own lead so it cannot shrink the lead of real transitions.
        case .prepare: return (actuator.powerState == .ready ? keys.prepareIfNeeded : keys.prepare, actuator.budget(for: .prepare))
        case .trigger(let steps): return (keys.trigger(steps: steps.count), triggerCost(steps: steps.count))
        case .amplitude: return (keys.amplitude, writeCost)
        case .frequency: return (keys.frequency, writeCost)
        case .pcm: return (keys.pcm, .zero)
        case .stop: return (keys.stop, stopCost)
        }
    }

    /// Loading the sequencer slots (the steps, and the terminating slot when the sequencer is not
    /// full) and the start, as the actuator costs them.
    private func triggerCost(steps: Int) -> Duration {
        .nanoseconds(romTriggerCost.nanoseconds(slots: min(steps + 1, ChannelCommandKeys.preparedTriggerLengths)))
    }

    /// How the scheduler treats a command: clicks are transients (dropped when stale), amplitude
    /// and frequency are streams per player (resynced when late), everything else must happen.
    func commandClass(of command: ActuatorCommand, streams: @autoclosure () -> PlayerStreams) -> CommandClass {
        switch command {
        case .trigger: .transient
        case .amplitude: streams().amplitude
        case .frequency: streams().frequency
        case .prepare, .pcm, .stop: .control
        }
    }

    /// Time from now until content can start on this actuator: waking if off, preparing unless
    /// ready, and the bus time of a full sequencer trigger so the first command is not itself late.
    var startLead: Duration {
        var lead = triggerCost(steps: ChannelCommandKeys.preparedTriggerLengths)
        if actuator.powerState == .off { lead += actuator.budget(for: .wake) }
        if actuator.powerState != .ready { lead += actuator.budget(for: .prepare) }
        return lead
    }
}

/// A program compiled outside the engine's lock (`HapticEngine.compileAhead`), with what it was
/// compiled from: used only while the engine's settings and the actuator's compiler are still those.
struct CompiledAhead: Sendable {
    /// The pattern as the engine's settings then left it for the actuator.
    var pattern: HapticPattern
    var compilerGeneration: Int
    var settingsGeneration: Int
    var program: ActuatorProgram
}
