import ActuatorHAL

/// The engine cut an actuator's drive because it ran longer than its continuous-drive limit.
public struct DriveLimitEvent: Sendable, Hashable, CustomStringConvertible {
    /// The actuator's name on the engine.
    public var actuator: String
    /// When the drive began.
    public var driveStart: MonotonicInstant
    /// When the engine stopped it.
    public var stoppedAt: MonotonicInstant
    /// The limit that was reached.
    public var limit: Duration

    /// A recorded cut.
    public init(actuator: String, driveStart: MonotonicInstant, stoppedAt: MonotonicInstant, limit: Duration) {
        self.actuator = actuator
        self.driveStart = driveStart
        self.stoppedAt = stoppedAt
        self.limit = limit
    }

    /// One line for logs and `play` summaries.
    public var description: String {
        "actuator \(actuator): continuous drive stopped after \(CompactNumber.text((stoppedAt - driveStart).secondsValue)) s, its limit (max-continuous-drive-ms \(CompactNumber.text(limit.secondsValue * 1000)))"
    }
}
