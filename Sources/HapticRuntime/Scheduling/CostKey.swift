/// What a scheduled action costs, as a key the scheduler learns its lead by: commands with the
/// same key share one lead, measured from their durations. It also names the actuators whose
/// hardware the action touches, so a failing action is put down to them by identity, not by
/// reading a name out of a string.
public struct CostKey: Hashable, Sendable, CustomStringConvertible {
    /// The actuators the action drives (empty: none — a sound service, a player's control).
    public let actuators: [String]
    /// What it does: `amplitude`, `trigger3`, `wake`, `audio-service`…
    public let action: String
    /// The hash of both, made once: the scheduler looks a key up for every command it queues, and
    /// hashing its strings each time was a sixth of a `player.start()` (callgrind).
    private let hashCode: Int

    /// The key of `action` on `actuators`.
    public init(_ action: String, actuators: [String] = []) {
        self.action = action
        self.actuators = actuators
        var hasher = Hasher()
        hasher.combine(action)
        hasher.combine(actuators)
        hashCode = hasher.finalize()
    }

    public static func == (lhs: CostKey, rhs: CostKey) -> Bool {
        lhs.hashCode == rhs.hashCode && lhs.action == rhs.action && lhs.actuators == rhs.actuators
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(hashCode)
    }

    /// The key of `action` on the one actuator `actuator`.
    public init(_ action: String, actuator: String) {
        self.init(action, actuators: [actuator])
    }

    /// `main/amplitude`, `left+right/trigger1`, `audio-service`.
    public var description: String {
        actuators.isEmpty ? action : actuators.joined(separator: "+") + "/" + action
    }
}

extension CostKey: ExpressibleByStringLiteral {
    /// An action on no actuator, by name: `"live-view"`.
    public init(stringLiteral action: String) {
        self.init(action)
    }
}
