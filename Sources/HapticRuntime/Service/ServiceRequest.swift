import FoundationEssentials

/// What a client asks the service to play.
public enum ServiceContent: Sendable, Hashable {
    /// An AHAP document's text (its AudioCustom files resolve in the content library only).
    case ahap(String)
    /// Haptic Notation text.
    case notation(String)
    /// A notes file's text (one note per line, or a JSON array).
    case notes(String)
    /// A pattern of the content library, by name (`success`, or `success.ahap`).
    case library(String)
    /// A DRV2605 ROM effect, 1–123.
    case effect(Int)
    /// UIKit's feedback vocabulary, intensity 0…1 (impacts only; 1 for the others).
    case feedback(Note.HapticFeedback, intensity: Double)
    /// A named event (`button-pressed`), played as the theme's current profile says.
    case event(String)
    /// Content already read, under `name` (an input binding's inline notation, read with the board).
    case pattern(name: String, HapticPattern)
}

/// One request to play.
public struct ServicePlayRequest: Sendable, Hashable {
    public var content: ServiceContent
    /// The actuators to play on; nil for every actuator of the board.
    public var actuators: [String]?
    /// A higher priority preempts lower ones on the actuators it needs; equal ones mix. In
    /// `priorities`.
    public var priority: Int
    /// The priorities a request may have, whichever way it comes (HTTP, WebSocket, a board's
    /// input bindings).
    public static let priorities = -1_000...1_000
    /// Whether the feedback keeps playing after the client's connection closes.
    public var outlivesClient: Bool
    /// For a named event: play as this profile instead of the current one (an alarm in `quiet`);
    /// only clients allowed to override may ask.
    public var profile: FeedbackProfile?
    /// Whether the content repeats from its start until stopped (a held button's continuous
    /// feel); the duration limit then applies to one pass.
    public var loops: Bool

    public init(content: ServiceContent, actuators: [String]? = nil, priority: Int = 0, outlivesClient: Bool = false, profile: FeedbackProfile? = nil, loops: Bool = false) {
        self.content = content
        self.actuators = actuators
        self.priority = priority
        self.outlivesClient = outlivesClient
        self.profile = profile
        self.loops = loops
    }
}

/// Who asked: one connection to the service, with the peer's credentials where the transport
/// gives them (SO_PEERCRED on the Unix socket).
public struct ServiceClient: Sendable, Hashable {
    public var id: Int
    public var uid: UInt32?
    public var pid: Int32?
    /// Whether the client may play a named event as a louder profile than the current one.
    public var mayOverrideProfile: Bool

    public init(id: Int, uid: UInt32? = nil, pid: Int32? = nil, mayOverrideProfile: Bool = false) {
        self.id = id
        self.uid = uid
        self.pid = pid
        self.mayOverrideProfile = mayOverrideProfile
    }
}
