/// The cost keys of one actuator's commands, made once when the engine is built: a `CostKey` holds
/// an array and strings, so building one per command would allocate on every RTP sample.
struct ChannelCommandKeys {
    /// The longest ROM sequence with a key made in advance (a DRV2605's sequencer has 8 slots).
    static let preparedTriggerLengths = 8

    let actuator: String
    let amplitude: CostKey
    let frequency: CostKey
    let pcm: CostKey
    let stop: CostKey
    let prepare: CostKey
    /// A prepare scheduled while the actuator is already ready (see `ActuatorChannel.cost(of:)`).
    let prepareIfNeeded: CostKey
    /// The refill of a plan of a player on this actuator alone (`HapticPatternPlayer`): a click's
    /// end lies beyond the plan's horizon, so nearly every start schedules one.
    let playerPlan: CostKey
    /// The engine's own actions on the actuator, scheduled around every start and end: the status
    /// poll (armed by a start), a ROM sequence's end poll, the wake ahead of content, the idle
    /// timers (armed by an end, cancelled by a start) and the continuous-drive check.
    let status: CostKey
    let sequenceEnd: CostKey
    let wake: CostKey
    let standby: CostKey
    let sleep: CostKey
    let driveLimit: CostKey
    /// `trigger1`…`trigger8`, by step count.
    private let triggers: [CostKey]

    init(actuator: String) {
        self.actuator = actuator
        amplitude = CostKey("amplitude", actuator: actuator)
        frequency = CostKey("frequency", actuator: actuator)
        pcm = CostKey("pcm", actuator: actuator)
        stop = CostKey("stop", actuator: actuator)
        prepare = CostKey("prepare", actuator: actuator)
        prepareIfNeeded = CostKey("prepare-if-needed", actuator: actuator)
        playerPlan = CostKey("player-plan", actuator: actuator)
        status = CostKey("status", actuator: actuator)
        sequenceEnd = CostKey("sequence-end", actuator: actuator)
        wake = CostKey("wake", actuator: actuator)
        standby = CostKey("standby", actuator: actuator)
        sleep = CostKey("sleep", actuator: actuator)
        driveLimit = CostKey("drive-limit", actuator: actuator)
        triggers = (0...Self.preparedTriggerLengths).map { CostKey("trigger\($0)", actuator: actuator) }
    }

    /// The key of a ROM sequence of `steps` steps; keyed by length so a long sequence's learned
    /// cost does not make a single click early.
    func trigger(steps: Int) -> CostKey {
        triggers.indices.contains(steps) ? triggers[steps] : CostKey("trigger\(steps)", actuator: actuator)
    }
}

/// How the scheduler treats one player's commands on one actuator: its amplitude and frequency
/// are streams of their own (resynced when late), named once when the player is made.
struct PlayerStreams {
    let amplitude: CommandClass
    let frequency: CommandClass

    init(actuator: String, player: Int) {
        amplitude = .stream(StreamID("\(actuator)/\(player)/amplitude"))
        frequency = .stream(StreamID("\(actuator)/\(player)/frequency"))
    }
}
