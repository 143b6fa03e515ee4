import ActuatorHAL
import Foundation
import HapticRuntime
import Hummingbird
import HummingbirdWebSocket
import NIOConcurrencyHelpers
import NIOCore

/// The HTTP and WebSocket API of `hapticboard serve` over a `HapticService` (docs/service.md,
/// `/openapi.json`). Each route parses, asks the service, and answers JSON; every refusal is a
/// JSON error with a reason code (`ServeError`).
struct ServeAPI: Sendable {
    let service: HapticService
    let clients: ServeClients
    /// `GET /board`: what `boards show` prints, worked out once at start.
    let board: BoardShowReport
    let metrics: ServeMetrics
    /// How many triggers `EventLoopTriggerHandler` answered.
    let triggersAnsweredOnEventLoop = NIOLockedValueBox(0)

    /// Which router: the HTTP routes, or the one a WebSocket upgrade request is checked against.
    enum Requests {
        case http, webSocketUpgrade
    }

    /// Every route; with `token`, every request must carry `Authorization: Bearer <token>`, and
    /// pages from `allowedOrigins` may make them from a browser (`AllowedOriginsMiddleware`).
    /// `GET /ws` upgrades on the `.webSocketUpgrade` router; on the `.http` one it is a request
    /// that did not ask for the upgrade: 426 Upgrade Required.
    func router(token: String?, allowedOrigins: Set<String> = [], for requests: Requests = .http) -> Router<ServeRequestContext> {
        // HEAD answers what GET would, without the body (RFC 9110 §9.3.2: monitoring probes use it).
        let router = Router(context: ServeRequestContext.self, options: .autoGenerateHeadEndpoints)
        let routes = RouteMethods()
        // Outermost, so a refusal (401 without the token) also carries the CORS headers and the
        // page can read why; and a preflight, which never carries the token, is answered.
        if !allowedOrigins.isEmpty { router.middlewares.add(AllowedOriginsMiddleware(origins: allowedOrigins)) }
        router.middlewares.add(ServeErrorMiddleware(service: service, routes: routes))
        if let token { router.middlewares.add(BearerTokenMiddleware(token: token, service: service)) }
        router.get("/openapi.json") { _, _ in Self.json(text: OpenAPIDocument.served(by: service)) }
        router.get("/status") { _, _ in try Self.json(service.status) }
        router.get("/board") { _, _ in try Self.json(board) }
        router.get("/players") { _, _ in try Self.json(service.players) }
        router.delete("/players") { _, _ in
            let count = service.players.count
            service.stopAll()
            return try Self.json(["stopped": count])
        }
        router.delete("/players/:id") { _, context in
            try service.stop(player: try context.parameters.require("id", as: Int.self))
            return Response(status: .noContent)
        }
        router.post("/play/ahap") { request, context in try await play(request, context) { .ahap($0) } }
        router.post("/play/notation") { request, context in try await play(request, context) { .notation($0) } }
        router.post("/play/notes") { request, context in try await play(request, context) { .notes($0) } }
        for route in TriggerRoute.allCases {
            router.post(RouterPath(route.path)) { request, context in
                let parameter = try route.parameterName.map { try context.parameters.require($0) }
                return try await play(request, context, content: try route.content(parameter: parameter, query: request.uri.queryParameters))
            }
        }
        router.get("/profile") { _, _ in try Self.json(["profile": service.profile.rawValue]) }
        router.put("/profile") { request, context in
            let body = try await StrictJSON.decode(ProfileBody.self, from: request, context: context)
            service.profile = body.profile
            return try Self.json(["profile": body.profile.rawValue])
        }
        router.post("/prepare") { request, context in
            let body = try await StrictJSON.decode(PrepareBody.self, from: request, context: context)
            try service.keepAwake(for: .milliseconds(body.keepAwakeMs))
            return try Self.json(service.status)
        }
        router.get("/metrics") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4"], body: .init(byteBuffer: ByteBuffer(string: metrics.exposition(service: service))))
        }
        router.get("/events") { _, context in
            _ = await clients.client(on: context.channel)
            return Response(status: .ok, headers: [.contentType: "application/x-ndjson"], body: ResponseBody { writer in
                try await EventStream.write(service: service, to: writer)
            })
        }
        switch requests {
        case .webSocketUpgrade:
            router.ws(RouterPath(WebSocketHandshakeCheck.webSocketPath)) { _, _ in .upgrade([:]) } onUpgrade: { inbound, outbound, context in
                let channel = context.requestContext.channel
                let session = WebSocketSession(api: self, client: await clients.client(on: channel))
                await WebSocketTriggerHandler.attach(session, to: channel)
                try await session.run(inbound: inbound, outbound: outbound)
            }
        case .http:
            router.get(RouterPath(WebSocketHandshakeCheck.webSocketPath)) { _, _ -> Response in
                throw ServeError(ServiceError(.invalidRequest, "/ws is a WebSocket: ask for it with 'Connection: Upgrade' and 'Upgrade: websocket'"))
                    .withStatus(.upgradeRequired, headers: [.upgrade: "websocket", .connection: "Upgrade"])
            }
        }
        routes.record(router)
        return router
    }

    // MARK: Playing

    /// Plays the request's body as content made by `content`.
    private func play(_ request: Request, _ context: ServeRequestContext, content: (String) -> ServiceContent) async throws -> Response {
        var request = request
        let body = try await request.collectBody(upTo: context.maxUploadSize)
        guard body.readableBytes > 0 else {
            throw ServeError(ServiceError(.invalidContent, "the request has no body: send the content to play"))
        }
        guard let text = body.getString(at: body.readerIndex, length: body.readableBytes) else {
            throw ServeError(ServiceError(.invalidContent, "the body is not UTF-8 text"))
        }
        return try await play(request, context, content: content(text))
    }

    private func play(_ request: Request, _ context: ServeRequestContext, content: ServiceContent) async throws -> Response {
        let options = try PlayOptions(request.uri.queryParameters)
        let client = await clients.client(on: context.channel)
        let playRequest = ServicePlayRequest(content: content, actuators: options.actuators, priority: options.priority, outlivesClient: options.outlive, profile: options.profile)
        guard options.wait else {
            let answer = try trigger(playRequest, from: client)
            return Self.json(text: answer.text, status: answer.status)
        }
        let waiter = PlayWaiter(service: service)
        let started = try waiter.play(playRequest, from: client)
        metrics.triggered(started.player != nil)
        let report = await waiter.report(of: started, board: board.board)
        return try Self.json(PlayResponse(started, ended: report?.ended, report: report?.playback), status: .ok)
    }

    /// A play without `wait`: started, counted, and its answer — 201 with the player, or 200
    /// without one (a silent profile). The routes and `EventLoopTriggerHandler` answer with it.
    func trigger(_ request: ServicePlayRequest, from client: ServiceClient) throws -> (status: HTTPResponse.Status, text: String) {
        let started = try service.play(request, from: client)
        metrics.triggered(started.player != nil)
        let response = PlayResponse(started)
        let status: HTTPResponse.Status = started.player == nil ? .ok : .created
        // JSONEncoder only for what the direct writer leaves to it, which it may refuse (an
        // infinite duration): that is the route's error, as before.
        return (status, try TriggerAnswerJSON.text(of: response) ?? String(decoding: Self.jsonData(response), as: UTF8.self))
    }

    /// A feedback route's content (`TriggerRoute`): its `intensity` from the query (1 without
    /// one), then the kind and style.
    static func feedback(kind: String, style: String?, query: Parameters) throws(ServeError) -> ServiceContent {
        try feedback(kind: kind, style: style, intensity: PlayOptions.double(query, "intensity") ?? 1)
    }

    /// UIKit's feedback vocabulary by name: `impact[/style]`, `notification/type`, `selection`.
    static func feedback(kind: String, style: String? = nil, intensity: Double) throws(ServeError) -> ServiceContent {
        switch (kind, style) {
        case ("impact", let style):
            guard let impact = Note.HapticFeedback.Impact(rawValue: style ?? "medium") else {
                throw ServeError(ServiceError(.invalidRequest, "impact style '\(style ?? "")': expected \(Note.HapticFeedback.Impact.allCases.map(\.rawValue).joined(separator: ", "))", pointer: "/style"))
            }
            return .feedback(.impact(impact), intensity: intensity)
        case ("notification", let type?):
            // UIKit's `error` is Piano's `failure`.
            guard let notification = Note.HapticFeedback.Notification(rawValue: type == "error" ? "failure" : type) else {
                throw ServeError(ServiceError(.invalidRequest, "notification type '\(type)': expected success, warning or error", pointer: "/type"))
            }
            return .feedback(.notification(notification), intensity: intensity)
        case ("selection", nil):
            return .feedback(.selection, intensity: intensity)
        default:
            throw ServeError(ServiceError(.invalidRequest, "unknown feedback '\([kind, style].compactMap { $0 }.joined(separator: "/"))': expected impact[/light|medium|heavy|soft|rigid], notification/success|warning|error or selection"))
        }
    }

    // MARK: JSON

    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: try jsonData(value))))
    }

    /// What every JSON answer is: keys sorted, slashes unescaped.
    static func jsonData(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    static func json(text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}

/// What `POST /play/…`, `/feedback/…` and `/events/…` answer.
struct PlayResponse: Encodable {
    var player: ServicePlayerInfo?
    var warnings: [String]
    /// With `wait=true`: how the player ended, and what it did.
    var ended: PlayerEndReason?
    var report: PlaybackReport?

    init(_ started: HapticService.Started, ended: PlayerEndReason? = nil, report: PlaybackReport? = nil) {
        self.init(player: started.player, warnings: started.warnings, ended: ended, report: report)
    }

    init(player: ServicePlayerInfo?, warnings: [String], ended: PlayerEndReason? = nil, report: PlaybackReport? = nil) {
        self.player = player
        self.warnings = warnings
        self.ended = ended
        self.report = report
    }
}

/// The query options every play route takes.
struct PlayOptions {
    var actuators: [String]?
    var priority = 0
    var outlive = false
    var wait = false
    var profile: FeedbackProfile?

    private static let known: Set<String> = ["actuator", "priority", "outlive", "wait", "profile", "intensity"]

    init(_ query: Parameters) throws(ServeError) {
        for (key, _) in query where !Self.known.contains(String(key)) {
            throw ServeError(ServiceError(.invalidRequest, "unknown query parameter '\(key)'; expected \(Self.known.sorted().joined(separator: ", "))", pointer: "?\(key)"))
        }
        let named = query.getAll("actuator").flatMap { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        // `actuator=` is a client whose name came out empty, not a request for every actuator.
        guard !named.contains("") else {
            throw ServeError(ServiceError(.invalidRequest, "an empty actuator name; leave 'actuator' out to play on every actuator", pointer: "?actuator"))
        }
        actuators = named.isEmpty ? nil : named
        priority = try Self.priority(query) ?? 0
        outlive = try Self.bool(query, "outlive") ?? false
        wait = try Self.bool(query, "wait") ?? false
        if let text = query.get("profile") {
            guard let profile = FeedbackProfile(rawValue: text) else {
                throw ServeError(ServiceError(.unknownProfile, "profile '\(text)': expected full, quiet or silent", pointer: "?profile"))
            }
            self.profile = profile
        }
    }

    static func priority(_ query: Parameters) throws(ServeError) -> Int? {
        guard let text = query.get("priority") else { return nil }
        guard let value = Int(text), ServicePlayRequest.priorities.contains(value) else {
            throw ServeError(ServiceError(.invalidRequest, "priority '\(text)': expected an integer in \(ServicePlayRequest.priorities)", pointer: "?priority"))
        }
        return value
    }

    static func double(_ query: Parameters, _ key: String) throws(ServeError) -> Double? {
        guard let text = query.get(key) else { return nil }
        guard let value = Double(text), value.isFinite else {
            throw ServeError(ServiceError(.invalidRequest, "\(key) '\(text)': expected a number", pointer: "?\(key)"))
        }
        return value
    }

    static func bool(_ query: Parameters, _ key: String) throws(ServeError) -> Bool? {
        guard let text = query.get(key) else { return nil }
        // The document's boolean: `?wait` alone or `wait=1` would be a value it does not allow.
        switch text {
        case "true": return true
        case "false": return false
        default: throw ServeError(ServiceError(.invalidRequest, "\(key) '\(text)': expected true or false", pointer: "?\(key)"))
        }
    }
}

/// `PUT /profile`.
struct ProfileBody: Decodable, StrictlyDecoded {
    var profile: FeedbackProfile
    static let keys: Set<String> = ["profile"]
}

/// `POST /prepare`.
struct PrepareBody: Decodable, StrictlyDecoded {
    /// How long the actuators stay ready while idle before they go off.
    var keepAwakeMs: Int
    static let keys: Set<String> = ["keepAwakeMs"]

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        keepAwakeMs = try container.decode(Int.self, forKey: .keepAwakeMs)
        guard (1...3_600_000).contains(keepAwakeMs) else {
            throw DecodingError.dataCorruptedError(forKey: .keepAwakeMs, in: container, debugDescription: "expected 1...3600000 ms, not \(keepAwakeMs)")
        }
    }

    private enum CodingKeys: String, CodingKey { case keepAwakeMs }
}

