/// Why the service refused a request: a stable reason code for programs and a message for people.
public struct ServiceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of refusal, each with the HTTP status it is served as.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        case invalidContent = "invalid-content"
        case invalidRequest = "invalid-request"
        case unknownActuator = "unknown-actuator"
        case unknownPlayer = "unknown-player"
        case notInLibrary = "not-in-library"
        case unknownEvent = "unknown-event"
        case unknownProfile = "unknown-profile"
        case overrideNotAllowed = "override-not-allowed"
        case busy = "busy"
        case tooManyPlayers = "too-many-players"
        case rateLimited = "rate-limited"
        case patternTooLong = "pattern-too-long"
        case tooManyEvents = "too-many-events"
        case bodyTooLarge = "body-too-large"
        case unauthorized = "unauthorized"
        case engineUnavailable = "engine-unavailable"

        /// The HTTP status the code is served with.
        public var httpStatus: Int {
            switch self {
            case .invalidContent, .invalidRequest, .unknownActuator, .unknownProfile: 400
            case .unauthorized: 401
            case .overrideNotAllowed: 403
            case .unknownPlayer, .notInLibrary, .unknownEvent: 404
            case .busy: 409
            case .patternTooLong, .tooManyEvents, .bodyTooLarge: 413
            case .tooManyPlayers, .rateLimited: 429
            case .engineUnavailable: 503
            }
        }
    }

    public var code: Code
    public var message: String
    /// For content: where in the submitted text (`line:column`) and which key (a JSON pointer).
    public var line: Int?
    public var column: Int?
    public var pointer: String?

    public init(_ code: Code, _ message: String, line: Int? = nil, column: Int? = nil, pointer: String? = nil) {
        self.code = code
        self.message = message
        self.line = line
        self.column = column
        self.pointer = pointer
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
