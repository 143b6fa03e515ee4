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
        if capabilities != compiled.capabilities { compiled = PatternCompiler(capabilities: capabilities, options: compiled.options) }
        return compiled
    }
    private var compiled: PatternCompiler
    private let maximumContinuousDrive: Duration?
    var mixer: AmplitudeMixer
    /// Players with commands pending or output on this actuator.
    var activePlayers: Set<Int> = []
    /// Pending automatic standby and sleep.
    var idleTokens: [ScheduledToken] = []
    /// How often the status is read while players use the actuator; nil: never.
    let statusPollInterval: Duration?
    /// The next status read, while players use the actuator.
    var statusPollToken: ScheduledToken?
    /// A ROM trigger was issued and nothing has stopped it since: the chip may still be playing.
    var sequenceMayRun = false
    var driveGuard: ContinuousDriveGuard

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
    }

    /// The scheduler learns bus costs per key: one key per actuator and kind of command.
    func costKey(_ action: String) -> CostKey { CostKey(action, actuator: name) }

    /// Key and expected bus time of a command (before the scheduler has measured any).
    func cost(of command: ActuatorCommand) -> (key: CostKey, expected: Duration) {
        let write = actuator.capabilities.amplitudeUpdateCost
        switch command {
        // A prepare scheduled while the actuator is already ready may find it in the right mode and
        // cost nothing: it learns its own lead so it cannot shrink the lead of real transitions.
        case .prepare: return (costKey(actuator.powerState == .ready ? "prepare-if-needed" : "prepare"), actuator.budget(for: .prepare))
        // One write per sequencer slot, the terminating slot when the sequencer is not full, and GO.
        // Keyed by length: a long sequence's learned cost must not make a single click early.
        case .trigger(let steps): return (costKey("trigger\(steps.count)"), write * (min(steps.count + 1, 8) + 1))
        case .amplitude: return (costKey("amplitude"), write)
        case .frequency: return (costKey("frequency"), write)
        case .pcm: return (costKey("pcm"), .zero)
        case .stop: return (costKey("stop"), actuator.stopLead)
        }
    }

    /// How the scheduler treats a command: clicks are transients (dropped when stale), amplitude
    /// and frequency are streams per player (resynced when late), everything else must happen.
    func commandClass(of command: ActuatorCommand, player: Int) -> CommandClass {
        switch command {
        case .trigger: .transient
        case .amplitude: .stream(StreamID("\(name)/\(player)/amplitude"))
        case .frequency: .stream(StreamID("\(name)/\(player)/frequency"))
        case .prepare, .pcm, .stop: .control
        }
    }

    /// Time from now until content can start on this actuator: waking if off, preparing unless
    /// ready, and the bus time of a full sequencer trigger so the first command is not itself late.
    var startLead: Duration {
        var lead = cost(of: .trigger(Array(repeating: .effect(1), count: 8))).expected
        if actuator.powerState == .off { lead += actuator.budget(for: .wake) }
        if actuator.powerState != .ready { lead += actuator.budget(for: .prepare) }
        return lead
    }
}
