/// A player of the service as clients see it.
public struct ServicePlayerInfo: Sendable, Hashable, Codable {
    public var id: Int
    /// What it plays: the library name, the event name, `notation`, `ahap`, `effect 47`, …
    public var name: String
    /// The connection that asked for it.
    public var client: Int
    public var priority: Int
    public var actuators: [String]
    /// Seconds the compiled content runs.
    public var duration: Double
    public var outlivesClient: Bool
}

/// Why a player ended.
public enum PlayerEndReason: String, Sendable, Hashable, Codable, CaseIterable {
    /// It played to its end.
    case finished
    /// A client stopped it.
    case stopped
    /// A request of higher priority took its actuators.
    case preempted
    /// Its client's connection closed and it did not ask to outlive it.
    case clientLeft = "client-left"
    /// The engine stopped it: a fault it could not keep to some actuators (every actuator
    /// failed, or the sound output), a lost device, a reset; or a continuous-drive cut.
    case engineStopped = "engine-stopped"
    /// One of its actuators failed; it ended on all of them, while players on other actuators
    /// played on.
    case actuatorFault = "actuator-fault"
    /// The service shut down.
    case shutDown = "shut-down"
}

/// Something that happened, for the event stream.
public enum ServiceEvent: Sendable, Hashable, Encodable {
    case playerStarted(ServicePlayerInfo)
    case playerEnded(id: Int, reason: PlayerEndReason)
    /// A fault, with the error behind it. `reason` `system error`: the failing actuators were
    /// re-initialised; `device lost`: they are off. `actuators`: the ones that failed, when the
    /// engine kept the fault to them and played on elsewhere; nil when the engine stopped.
    case fault(reason: String, message: String, actuators: [String]?)
    case powerTransition(actuator: String, transition: String, from: String, to: String, elapsedMicroseconds: Double, budgetMicroseconds: Double)
    case profileChanged(FeedbackProfile)
    /// A button or encoder of the board did `kind` (`press`, `release`, `step` with its
    /// `direction`) at the edge's kernel timestamp; the bindings started `players`.
    case input(input: String, kind: String, direction: Int?, edgeNanoseconds: Int64, players: [Int])

    private enum CodingKeys: String, CodingKey {
        case event, player, id, reason, message, actuators, actuator, transition, from, to, elapsedMicroseconds, budgetMicroseconds, profile
        case input, kind, direction, edgeNanoseconds, players
    }

    /// `{"event": "player-started", …}`: one object per event, named by `event`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .playerStarted(let player):
            try container.encode("player-started", forKey: .event)
            try container.encode(player, forKey: .player)
        case .playerEnded(let id, let reason):
            try container.encode("player-ended", forKey: .event)
            try container.encode(id, forKey: .id)
            try container.encode(reason, forKey: .reason)
        case .fault(let reason, let message, let actuators):
            try container.encode("fault", forKey: .event)
            try container.encode(reason, forKey: .reason)
            try container.encode(message, forKey: .message)
            try container.encodeIfPresent(actuators, forKey: .actuators)
        case .powerTransition(let actuator, let transition, let from, let to, let elapsed, let budget):
            try container.encode("power-transition", forKey: .event)
            try container.encode(actuator, forKey: .actuator)
            try container.encode(transition, forKey: .transition)
            try container.encode(from, forKey: .from)
            try container.encode(to, forKey: .to)
            try container.encode(elapsed, forKey: .elapsedMicroseconds)
            try container.encode(budget, forKey: .budgetMicroseconds)
        case .profileChanged(let profile):
            try container.encode("profile-changed", forKey: .event)
            try container.encode(profile.rawValue, forKey: .profile)
        case .input(let input, let kind, let direction, let edge, let players):
            try container.encode("input", forKey: .event)
            try container.encode(input, forKey: .input)
            try container.encode(kind, forKey: .kind)
            try container.encodeIfPresent(direction, forKey: .direction)
            try container.encode(edge, forKey: .edgeNanoseconds)
            try container.encode(players, forKey: .players)
        }
    }
}

extension FeedbackProfile: Codable {}
