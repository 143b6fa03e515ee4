import ActuatorHAL

/// An actuator as an engine drives it: its name, the actuator, and the engine's limits for it.
public struct EngineActuator {
    /// The name players and reports use (`main`, `left`).
    public var name: String
    /// The driver.
    public var actuator: any Actuator
    /// When the engine lowers its power state after the last output.
    public var idleTimeouts: IdleTimeouts
    /// Longest continuous drive before the engine cuts the output (board `max-continuous-drive-ms`);
    /// nil = no limit.
    public var maximumContinuousDrive: Duration?
    /// How often the engine reads the actuator's status while it plays, to turn faults the chip
    /// reports (over-temperature, over-current) into engine faults (board `status-poll-ms`); nil
    /// never reads it. Each read costs two register reads on a DRV2605.
    public var statusPollInterval: Duration?

    /// The default status poll: ten times a second.
    public static let defaultStatusPollInterval = Duration.milliseconds(100)

    /// An engine actuator; the name defaults to the actuator's own, the drive limit to its capabilities'.
    public init(
        _ actuator: any Actuator, name: String? = nil, idleTimeouts: IdleTimeouts = .default, maximumContinuousDrive: Duration? = nil,
        statusPollInterval: Duration? = EngineActuator.defaultStatusPollInterval
    ) {
        self.name = name ?? actuator.name
        self.actuator = actuator
        self.idleTimeouts = idleTimeouts
        self.maximumContinuousDrive = maximumContinuousDrive ?? actuator.capabilities.maximumContinuousDrive
        self.statusPollInterval = statusPollInterval
    }
}
