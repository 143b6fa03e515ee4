import Foundation
import HapticRuntime
import HummingbirdWebSocket
import NIOCore

/// One WebSocket connection to `/ws`: low-latency triggers and, once subscribed, the event stream.
///
/// Each text message is one JSON object with an `op`:
/// - `{"op": "play", "notation": "loud sharp"}` — or `ahap` (the document as a string or object),
///   `notes`, `library`, `effect`, `event`, or `feedback` (`impact` with `style`, `notification`
///   with `type`, `selection`) and `intensity`; optional `actuators`, `priority`, `outlive`,
///   `profile`, and `id`, echoed in the answer;
/// - `{"op": "stop", "player": 3}`, `{"op": "stop-all"}`;
/// - `{"op": "subscribe"}`, `{"op": "unsubscribe"}`.
///
/// Answers: `{"op": "started", "id", "player", "warnings"}`, `{"op": "stopped", "id"}`,
/// `{"op": "error", "id", "error": {code, message, …}}`; events as `{"event": …}`. Feedback the
/// connection started stops when it closes, unless it asked to outlive it.
struct WebSocketSession {
    let api: ServeAPI
    let client: ServiceClient

    /// Reads messages until the client closes; replies and events are written by one task, in order.
    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        let (outgoing, sender) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(4_096))
        let subscription = Subscription(service: api.service, sender: sender)
        defer {
            subscription.cancel()
            sender.finish()
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await text in outgoing { try await outbound.write(.text(text)) }
            }
            for try await message in inbound.messages(maxSize: ServeLimits.maximumBodySize) {
                guard let text = Self.text(of: message) else {
                    sender.yield(Self.encode(Reply(op: "error", error: ServeError(ServiceError(.invalidRequest, "send JSON as text messages, or as UTF-8 in binary ones")).body.error)))
                    continue
                }
                sender.yield(handle(text, subscription: subscription))
            }
            sender.finish()
            try await group.waitForAll()
        }
    }

    /// A message's JSON text: a text message's, or a binary message's when it is UTF-8 (clients
    /// such as Node's `ws` send a Buffer, and Python's `websockets` bytes, as binary).
    private static func text(of message: WebSocketMessage) -> String? {
        switch message {
        case .text(let text): text
        case .binary(let buffer): String(validating: buffer.readableBytesView, as: UTF8.self)
        }
    }

    private func handle(_ text: String, subscription: Subscription) -> String {
        var id: JSONValue?
        do {
            var text = text
            guard let object = try text.withUTF8({ try Self.object(in: UnsafeRawBufferPointer($0)) }) else {
                throw ServiceError(.invalidRequest, "expected a JSON object", pointer: "")
            }
            id = object["id"].flatMap(JSONValue.init)
            guard let op = object["op"] as? String else { throw ServiceError(.invalidRequest, "missing 'op' (play, stop, stop-all, subscribe, unsubscribe)", pointer: "/op") }
            switch op {
            case "play":
                return try play(object, id: id)
            case "stop":
                try Self.allow(object, ["op", "id", "player"])
                guard let player = object["player"] as? Int else { throw ServiceError(.invalidRequest, "expected the player's id", pointer: "/player") }
                try api.service.stop(player: player)
                return Self.encode(Reply(op: "stopped", id: id))
            case "stop-all":
                try Self.allow(object, ["op", "id"])
                api.service.stopAll()
                return Self.encode(Reply(op: "stopped", id: id))
            case "subscribe", "unsubscribe":
                try Self.allow(object, ["op", "id"])
                if op == "subscribe" { subscription.start() } else { subscription.cancel() }
                return Self.encode(Reply(op: op + "d", id: id))
            default:
                throw ServiceError(.invalidRequest, "unknown op '\(op)' (play, stop, stop-all, subscribe, unsubscribe)", pointer: "/op")
            }
        } catch {
            return Self.errorReply(error, id: id)
        }
    }

    /// A message's JSON object (its UTF-8 text): the common shape without `JSONSerialization`
    /// (`FlatJSONObject`), anything else with it, which throws for text that is not JSON.
    /// `WebSocketTriggerHandler` reads frames with it too.
    static func object(in text: UnsafeRawBufferPointer) throws -> [String: Any]? {
        if let object = FlatJSONObject.read(text) { return object }
        return try JSONSerialization.jsonObject(with: Data(text)) as? [String: Any]
    }

    /// The answer to a `play` message (`object`, whose `id` is `id`): the player started, or
    /// why not. `WebSocketTriggerHandler` answers with it too.
    func play(_ object: [String: Any], id: JSONValue?) throws -> String {
        let started = try api.service.play(try Self.playRequest(object), from: client)
        api.metrics.triggered(started.player != nil)
        return TriggerAnswerJSON.started(id: id, player: started.player, warnings: started.warnings)
            ?? Self.encode(Reply(op: "started", id: id, player: started.player, warnings: started.warnings))
    }

    /// The `error` answer for what a message threw; anything but a refusal is JSON that did not read.
    static func errorReply(_ error: any Error, id: JSONValue?) -> String {
        let refusal = ServeError(known: error) ?? ServeError(ServiceError(.invalidRequest, "not JSON: \(error.localizedDescription)"))
        return encode(Reply(op: "error", id: id, error: refusal.body.error))
    }

    private static let contentKeys = ["ahap", "notation", "notes", "library", "effect", "event", "feedback"]
    /// Every field a play message may have; made once, not per message (a tenth of reading one).
    private static let playKeys = Set(contentKeys + ["op", "id", "actuators", "priority", "outlive", "profile", "style", "type", "intensity"])

    /// A play message as a request: exactly one content field and the options.
    static func playRequest(_ object: [String: Any]) throws -> ServicePlayRequest {
        try allow(object, playKeys)
        let given = contentKeys.filter { object[$0] != nil }
        guard given.count == 1, let key = given.first else {
            throw ServiceError(.invalidRequest, "a play message names exactly one of \(contentKeys.joined(separator: ", "))")
        }
        var request = ServicePlayRequest(content: try content(key, object))
        if let actuators = object["actuators"] {
            guard let names = actuators as? [String] else { throw ServiceError(.invalidRequest, "expected a list of actuator names", pointer: "/actuators") }
            request.actuators = names
        }
        if let priority = object["priority"] {
            guard let value = priority as? Int else { throw ServiceError(.invalidRequest, "expected an integer", pointer: "/priority") }
            request.priority = value
        }
        if let outlive = object["outlive"] {
            guard let value = outlive as? Bool else { throw ServiceError(.invalidRequest, "expected true or false", pointer: "/outlive") }
            request.outlivesClient = value
        }
        if let profile = object["profile"] {
            guard let name = profile as? String, let value = FeedbackProfile(rawValue: name) else {
                throw ServiceError(.unknownProfile, "expected full, quiet or silent", pointer: "/profile")
            }
            request.profile = value
        }
        return request
    }

    private static func content(_ key: String, _ object: [String: Any]) throws -> ServiceContent {
        let value = object[key]
        func text() throws -> String {
            guard let text = value as? String else { throw ServiceError(.invalidRequest, "expected a string", pointer: "/\(key)") }
            return text
        }
        switch key {
        case "ahap":
            if let document = value as? [String: Any] {
                let data = try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])
                return .ahap(String(decoding: data, as: UTF8.self))
            }
            return .ahap(try text())
        case "notation": return .notation(try text())
        case "notes": return .notes(try text())
        case "library": return .library(try text())
        case "event": return .event(try text())
        case "effect":
            guard let id = value as? Int else { throw ServiceError(.invalidRequest, "expected a ROM effect id 1...123", pointer: "/effect") }
            return .effect(id)
        default:
            let style = (object["style"] ?? object["type"]) as? String
            guard let kind = value as? String else { throw ServiceError(.invalidRequest, "expected impact, notification or selection", pointer: "/feedback") }
            let intensity = object["intensity"].map { ($0 as? Double) ?? Double.nan } ?? 1
            return try ServeAPI.feedback(kind: kind, style: style, intensity: intensity)
        }
    }

    /// Refuses fields a message may not have.
    static func allow(_ object: [String: Any], _ keys: Set<String>) throws {
        // The first unknown field in name order, without sorting every message's fields.
        if let unknown = object.keys.filter({ !keys.contains($0) }).min() {
            throw ServiceError(.invalidRequest, "unknown field '\(unknown)'", pointer: "/\(unknown)")
        }
    }

    static func encode(_ reply: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(reply)).map { String(decoding: $0, as: UTF8.self) } ?? #"{"op":"error"}"#
    }

    /// One answer.
    struct Reply: Encodable {
        var op: String
        var id: JSONValue?
        var player: ServicePlayerInfo?
        var warnings: [String]?
        var error: ServeError.Body.Detail?
    }
}

/// The client's correlation id, echoed as given (a number or a string).
enum JSONValue: Encodable {
    case number(Double)
    case string(String)

    init?(_ value: Any) {
        if let text = value as? String { self = .string(text) } else if let number = value as? Double { self = .number(number) } else { return nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let number): try container.encode(number)
        case .string(let text): try container.encode(text)
        }
    }
}

/// A connection's subscription to the event stream.
private final class Subscription: @unchecked Sendable {
    private let service: HapticService
    private let sender: AsyncStream<String>.Continuation
    private let lock = NSLock()
    private var token: Int?

    init(service: HapticService, sender: AsyncStream<String>.Continuation) {
        self.service = service
        self.sender = sender
    }

    func start() {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let sender = self.sender
        lock.withLock {
            guard token == nil else { return }
            token = service.subscribe { event in
                if let data = try? encoder.encode(event) { sender.yield(String(decoding: data, as: UTF8.self)) }
            }
        }
    }

    func cancel() {
        lock.withLock {
            if let token { service.unsubscribe(token) }
            token = nil
        }
    }
}
