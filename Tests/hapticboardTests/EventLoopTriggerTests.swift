import Foundation
import HapticRuntime
import HardwareMocks
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import NIOWebSocket
import ServiceLifecycle
import XCTest
@testable import hapticboard

/// `EventLoopTriggerHandler` answers what the routes answer: every request is sent on a kept-alive
/// connection to a listener that answers triggers on the event loop and to one that leaves them to
/// Hummingbird, and the two answers must be the same but for the `Date` and the ids.
final class EventLoopTriggerTests: XCTestCase {
    private struct Listeners {
        let api: ServeAPI
        let service: HapticService
        let fast: String
        let routed: String
    }

    /// Records every line logged through it.
    private struct LevelRecorder: LogHandler {
        let lines = NIOLockedValueBox<[(level: Logger.Level, text: String)]>([])
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            lines.withLockedValue { $0.append((event.level, "\(event.message) \(event.metadata ?? [:])")) }
        }
    }

    private func withListeners(recording recorder: LevelRecorder? = nil, _ body: (Listeners) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hb-trigger-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "loud sharp\n".write(to: folder.appendingPathComponent("tap.hnl"), atomically: true, encoding: .utf8)
        let hardware = SimulatedBoardHardware()
        let board = try Board.sim.open(on: hardware)
        let service = HapticService(board: board, scheduler: DeadlineScheduler(clock: hardware.virtualClock), library: ContentLibrary(folder: folder))
        try service.start(timing: nil)
        defer { service.shutDown() }
        var logger = Logger(label: "test") { _ in recorder ?? LevelRecorder() }
        logger.logLevel = recorder == nil ? .critical : .trace
        let api = ServeAPI(
            service: service, clients: ServeClients(service: service, overrideUIDs: [], tokenHoldersMayOverride: false, logger: logger),
            board: try BoardShowReport(board: board, calibrations: .init()), metrics: ServeMetrics(service: service)
        )
        let listeners = Listeners(api: api, service: service, fast: folder.appendingPathComponent("fast.sock").path, routed: folder.appendingPathComponent("routed.sock").path)
        let group = ServiceGroup(configuration: .init(services: [
            api.listener(at: .unixDomainSocket(path: listeners.fast), logger: logger),
            api.listener(at: .unixDomainSocket(path: listeners.routed), answersTriggersOnEventLoop: false, logger: logger),
        ].map { .init(service: $0) }, logger: logger))
        let serving = Task { try await group.run() }
        defer {
            serving.cancel()
            _ = try? ServiceConnection.blocking { await group.triggerGracefulShutdown() }
        }
        let deadline = Date().addingTimeInterval(30)
        while !(ServiceConnection.isServing(at: listeners.fast) && ServiceConnection.isServing(at: listeners.routed)) {
            guard Date() < deadline else { return XCTFail("the listeners did not start") }
            usleep(10_000)
        }
        try body(listeners)
    }

    /// A connection that has played once (through the routes, which learn who its client is).
    private func keptConnection(_ socket: String, service: HapticService) throws -> RawHTTPConnection {
        let connection = try RawHTTPConnection(socketPath: socket, receiveTimeout: .seconds(30))
        XCTAssertEqual(try connection.post("/feedback/selection"), 201)
        service.stopAll()
        return connection
    }

    /// The answer as compared: the status line and headers but the values of `Date` and
    /// `Content-Length`, and the body with every player and client id as `N`.
    /// The `Date` must be the answer's second's or the one before: Hummingbird, which answers
    /// what the event loop does not take on either listener, keeps its `Date` in a cache a timer
    /// refreshes once a second, not at the second's turn, so its `Date` can name the second before
    /// (a run answered at 09:36:23 with 09:36:22); the event loop's own reads the time per answer.
    private func answer(to request: String, on connection: RawHTTPConnection) throws -> String {
        let sent = time(nil)
        try connection.send(raw: request)
        // Past an interim `100 Continue` to the final answer.
        while try connection.readResponse() == 100 {}
        let seconds = ((sent - 1)...time(nil)).map { "date: \(HTTPDate.text(of: $0))".lowercased() }
        XCTAssertTrue(connection.lastHead.split(separator: "\r\n").contains { seconds.contains($0.lowercased()) }, "\(connection.lastHead) has no Date of \(seconds)")
        // The length follows the ids' digits; that it is the body's is what reading the answer checked.
        let head = connection.lastHead.split(separator: "\r\n").map { line in
            line.lowercased().hasPrefix("date:") ? "Date: (now)" : line.lowercased().hasPrefix("content-length:") ? "Content-Length: (n)" : String(line)
        }
        let body = String(decoding: connection.lastBody, as: UTF8.self)
            .replacingOccurrences(of: #""(id|client)":[0-9]+"#, with: #""$1":N"#, options: .regularExpression)
            .replacingOccurrences(of: #"player [0-9]+"#, with: "player N", options: .regularExpression)
        return (head + [body]).joined(separator: "\n")
    }

    func testTriggersAreAnsweredOnTheEventLoopAsTheRoutesAnswerThem() throws {
        let taken = [
            "/feedback/impact/rigid", "/feedback/impact", "/feedback/selection", "/feedback/notification/error?intensity=0.5",
            "/feedback/notification/warning?priority=2&actuator=main", "/play/effect/47?outlive=true&priority=3", "/play/library/tap",
            // Refusals: each the routes' own.
            "/feedback/impact/bogus", "/feedback/impact?bad=1", "/feedback/impact?intensity=loud", "/feedback/impact?profile=loud",
            "/feedback/impact?actuator=nowhere", "/feedback/impact?priority=99", "/play/effect/9999", "/play/effect/4x",
            "/play/library/missing", "/events/button-pressed", "/feedback/selection?wait=yes",
        ]
        let passedOn = [
            "POST /feedback/impact/rigid HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhello",
            "POST /Feedback/impact HTTP/1.1\r\nHost: h\r\n\r\n",
            "POST /feedback/impact/ HTTP/1.1\r\nHost: h\r\n\r\n",
            "POST /feedback/impact/r%69gid HTTP/1.1\r\nHost: h\r\n\r\n",
            "GET /feedback/impact HTTP/1.1\r\nHost: h\r\n\r\n",
            "POST /feedback/impact HTTP/1.0\r\nHost: h\r\nConnection: keep-alive\r\n\r\n",
            "POST /feedback/impact HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\n\r\n",
            "POST /feedback/impact HTTP/1.1\r\nHost: h\r\nConnection: keep-alive, x-other\r\n\r\n",
        ]
        try withListeners { listeners in
            let fast = try keptConnection(listeners.fast, service: listeners.service)
            let routed = try keptConnection(listeners.routed, service: listeners.service)
            let keepAlive = "POST /feedback/impact HTTP/1.1\r\nHost: h\r\nConnection: Keep-Alive\r\n\r\n"
            for request in taken.map({ "POST \($0) HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n\r\n" }) + [keepAlive] {
                let path = String(request.prefix { $0 != "\r" })
                let before = listeners.api.triggersAnsweredOnEventLoop.withLockedValue { $0 }
                let viaRoutes = try answer(to: request, on: routed)
                listeners.service.stopAll()
                XCTAssertEqual(try answer(to: request, on: fast), viaRoutes, path)
                listeners.service.stopAll()
                XCTAssertEqual(listeners.api.triggersAnsweredOnEventLoop.withLockedValue { $0 }, before + 1, "\(path) was not answered on the event loop")
            }
            let answered = listeners.api.triggersAnsweredOnEventLoop.withLockedValue { $0 }
            for request in passedOn {
                let viaRoutes = try answer(to: request, on: routed)
                listeners.service.stopAll()
                XCTAssertEqual(try answer(to: request, on: fast), viaRoutes, request)
                listeners.service.stopAll()
            }
            // A play that waits for its end: the routes', answered once the test stops it (the
            // virtual clock does not move on its own).
            try fast.send(raw: "POST /feedback/impact/rigid?wait=true HTTP/1.1\r\nHost: h\r\n\r\n")
            let deadline = Date().addingTimeInterval(30)
            while listeners.service.players.isEmpty, Date() < deadline { usleep(1_000) }
            listeners.service.stopAll()
            XCTAssertEqual(try fast.readResponse(), 200)
            XCTAssertTrue(String(decoding: fast.lastBody, as: UTF8.self).contains(#""ended":"stopped""#), String(decoding: fast.lastBody, as: UTF8.self))
            XCTAssertEqual(listeners.api.triggersAnsweredOnEventLoop.withLockedValue { $0 }, answered, "a request the routes must see was answered on the event loop")
        }
    }

    /// A connection's first request goes to the routes (they learn who the client is); a trigger
    /// sent behind a request still being answered waits its turn, so answers come in order; what
    /// the connection started stops when it closes.
    func testTheFirstRequestAndOneBehindAnUnansweredOneGoToTheRoutesInOrder() throws {
        try withListeners { listeners in
            try playInOrder(listeners)
            // Feedback it started ends with the connection, as the routes' does.
            let deadline = Date().addingTimeInterval(30)
            while !listeners.service.players.isEmpty, Date() < deadline { usleep(1_000) }
            XCTAssertEqual(listeners.service.players.count, 0, "the closed connection's feedback still plays")
        }
    }

    private func playInOrder(_ listeners: Listeners) throws {
        do {
            let connection = try RawHTTPConnection(socketPath: listeners.fast, receiveTimeout: .seconds(30))
            XCTAssertEqual(try connection.post("/feedback/impact"), 201)
            XCTAssertEqual(listeners.api.triggersAnsweredOnEventLoop.withLockedValue { $0 }, 0)
            try connection.send(raw: "GET /players HTTP/1.1\r\nHost: h\r\n\r\nPOST /feedback/selection HTTP/1.1\r\nHost: h\r\n\r\n")
            XCTAssertEqual(try connection.readResponse(), 200)
            XCTAssertTrue(String(decoding: connection.lastBody, as: UTF8.self).hasPrefix("["), "the players' list first")
            XCTAssertEqual(try connection.readResponse(), 201)
            XCTAssertEqual(listeners.api.triggersAnsweredOnEventLoop.withLockedValue { $0 }, 0)
            XCTAssertEqual(try connection.post("/feedback/selection"), 201)
            XCTAssertEqual(listeners.api.triggersAnsweredOnEventLoop.withLockedValue { $0 }, 1)
            XCTAssertEqual(listeners.service.players.count, 3)
        }
    }

    /// `WebSocketTriggerHandler` answers a `play` message as the session does, and passes on the
    /// messages the session must answer; the HTTP handler leaves the connection at its upgrade.
    func testWebSocketPlaysAreAnsweredOnTheEventLoopAsTheSessionAnswersThem() throws {
        let taken = [
            #"{"op": "play", "feedback": "impact", "style": "rigid", "id": 7}"#, #"{"op": "play", "feedback": "selection", "id": "a"}"#,
            #"{"op": "play", "feedback": "notification", "type": "error", "intensity": 0.5}"#,
            #"{"op": "play", "effect": 47, "priority": 3, "outlive": true}"#, #"{"op": "play", "library": "tap", "actuators": ["main"]}"#,
            #"{"op": "play", "notation": "loud sharp"}"#,
            // Refusals: each the session's own.
            #"{"op": "play", "feedback": "impact", "style": "bogus", "id": 2}"#, #"{"op": "play", "effect": "x"}"#, #"{"op": "play"}"#,
            #"{"op": "play", "effect": 1, "library": "tap"}"#, #"{"op": "play", "feedback": "impact", "bad": 1}"#,
            #"{"op": "play", "feedback": "impact", "profile": "loud"}"#, #"{"op": "play", "feedback": "impact", "actuators": ["nowhere"]}"#,
            #"{"op": "play", "notation": "loud sharp\n. 31s"}"#,
        ]
        // Not JSON to the reader (an id of 1e400 among them), or not a play.
        let passedOn = [
            #"{"op": "stop-all", "id": 3}"#, #"{"op": "stop", "player": 123456}"#, "hello", #"{"op": "nope"}"#, "[1]", #"{"op": "Play"}"#,
            #"{"op": "play", "feedback": "impact", "id": 1e400}"#,
        ]
        try withListeners { listeners in
            let fast = try RawHTTPConnection(socketPath: listeners.fast, receiveTimeout: .seconds(30))
            let routed = try RawHTTPConnection(socketPath: listeners.routed, receiveTimeout: .seconds(30))
            try fast.upgradeToWebSocket("/ws")
            try routed.upgradeToWebSocket("/ws")
            func reply(to message: String, on connection: RawHTTPConnection) throws -> String {
                try connection.send(webSocketText: message)
                let text = try connection.readWebSocketFrame()
                listeners.service.stopAll()
                return text.replacingOccurrences(of: #""(id|client)":[0-9]+"#, with: #""$1":N"#, options: .regularExpression)
            }
            // The first message may come before the session has started, and the session answers
            // it; once it has, the handler has the session.
            XCTAssertEqual(try reply(to: #"{"op": "stop-all", "id": 0}"#, on: fast), try reply(to: #"{"op": "stop-all", "id": 0}"#, on: routed))
            for message in taken {
                let before = listeners.api.triggersAnsweredOnEventLoop.withLockedValue { $0 }
                XCTAssertEqual(try reply(to: message, on: fast), try reply(to: message, on: routed), message)
                XCTAssertEqual(listeners.api.triggersAnsweredOnEventLoop.withLockedValue { $0 }, before + 1, "\(message) was not answered on the event loop")
            }
            let answered = listeners.api.triggersAnsweredOnEventLoop.withLockedValue { $0 }
            for message in passedOn {
                XCTAssertEqual(try reply(to: message, on: fast), try reply(to: message, on: routed), message)
            }
            // A play behind a message the session has not answered yet waits its turn.
            try fast.send(webSocketTexts: [#"{"op": "stop-all", "id": 1}"#, #"{"op": "play", "feedback": "selection", "id": 2}"#])
            XCTAssertEqual(try fast.readWebSocketFrame(), #"{"id":1,"op":"stopped"}"#)
            XCTAssertTrue(try fast.readWebSocketFrame().hasPrefix(#"{"id":2,"op":"started""#))
            XCTAssertEqual(listeners.api.triggersAnsweredOnEventLoop.withLockedValue { $0 }, answered, "a message the session must see was answered on the event loop")
            // Once subscribed, events go out beside the answers: the session answers everything.
            try fast.send(webSocketText: #"{"op": "subscribe", "id": 4}"#)
            while try !fast.readWebSocketFrame().contains(#""op":"subscribed""#) {}
            try fast.send(webSocketText: #"{"op": "play", "feedback": "selection", "id": 5}"#)
            while try !fast.readWebSocketFrame().contains(#""op":"started""#) {}
            XCTAssertEqual(listeners.api.triggersAnsweredOnEventLoop.withLockedValue { $0 }, answered, "a play after subscribe was answered on the event loop")
        }
    }

    /// Frames a client sends with its handshake, before the `101` (RFC 6455 §4.1 forbids it),
    /// reach the session past where the handler would go: the connection is left to the session,
    /// whose answers come in the order of the messages.
    func testFramesSentBeforeTheSwitchLeaveTheConnectionToTheSession() throws {
        try withListeners { listeners in
            let connection = try RawHTTPConnection(socketPath: listeners.fast, receiveTimeout: .seconds(30))
            let early = (1...3).map { #"{"op": "play", "feedback": "selection", "id": \#($0)}"# }
            try connection.upgradeToWebSocket("/ws", early: early)
            for id in 1...3 { XCTAssertTrue(try connection.readWebSocketFrame().hasPrefix(#"{"id":\#(id),"op":"started""#)) }
            try connection.send(webSocketText: #"{"op": "play", "feedback": "selection", "id": 4}"#)
            XCTAssertTrue(try connection.readWebSocketFrame().hasPrefix(#"{"id":4,"op":"started""#))
            XCTAssertEqual(listeners.api.triggersAnsweredOnEventLoop.withLockedValue { $0 }, 0)
        }
    }

    /// A frame that comes before the session has started goes to the session, and counts: the
    /// handler answers once the session has answered it.
    func testAMessageBeforeTheSessionStartedIsTheSessions() throws {
        try withListeners { listeners in
            let channel = EmbeddedChannel(handler: WebSocketTriggerHandler(session: nil))
            func text(_ text: String) -> WebSocketFrame {
                WebSocketFrame(fin: true, opcode: .text, data: channel.allocator.buffer(string: text))
            }
            try channel.writeInbound(text(#"{"op": "play", "feedback": "selection", "id": 1}"#))
            XCTAssertNotNil(try channel.readInbound(as: WebSocketFrame.self), "passed on")
            WebSocketTriggerHandler.attach(WebSocketSession(api: listeners.api, client: ServiceClient(id: 1)), in: channel.pipeline.syncOperations)
            // Behind the first, still unanswered: the session's too.
            try channel.writeInbound(text(#"{"op": "play", "feedback": "selection", "id": 2}"#))
            XCTAssertNotNil(try channel.readInbound(as: WebSocketFrame.self), "passed on")
            try channel.writeOutbound(text(#"{"id":1,"op":"started"}"#))
            try channel.writeOutbound(text(#"{"id":2,"op":"started"}"#))
            while try channel.readOutbound(as: WebSocketFrame.self) != nil {}
            try channel.writeInbound(text(#"{"op": "play", "feedback": "selection", "id": 3}"#))
            XCTAssertNil(try channel.readInbound(as: WebSocketFrame.self), "answered on the event loop")
            let answer = try XCTUnwrap(channel.readOutbound(as: WebSocketFrame.self))
            XCTAssertTrue(String(buffer: answer.unmaskedData).hasPrefix(#"{"id":3,"op":"started""#))
            XCTAssertEqual(listeners.api.triggersAnsweredOnEventLoop.withLockedValue { $0 }, 1)
            listeners.service.stopAll()
            _ = try channel.finish()
        }
    }

    /// A handshake `WebSocketHandshakeCheck` refuses ends the connection after its answer without
    /// Hummingbird logging a failed upgrade as an error: a client's mistake is not the service's.
    func testARefusedHandshakeIsNotLoggedAsAnError() throws {
        let recorder = LevelRecorder()
        try withListeners(recording: recorder) { listeners in
            let key = "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            for (headers, status) in [(key + "Sec-WebSocket-Version: 12\r\n", 426), ("Sec-WebSocket-Version: 13\r\n", 400)] {
                let connection = try RawHTTPConnection(socketPath: listeners.fast, receiveTimeout: .seconds(30))
                try connection.send(raw: "GET /ws HTTP/1.1\r\nHost: h\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\(headers)\r\n")
                XCTAssertEqual(try connection.readResponse(), status, headers)
                XCTAssertTrue(try connection.isClosedByTheService())
            }
            // A connection that works after them: whatever the refusals logged has been logged.
            // (The listeners' shutdown after the test is not looked at.)
            XCTAssertEqual(try keptConnection(listeners.fast, service: listeners.service).post("/feedback/selection"), 201)
            XCTAssertEqual(recorder.lines.withLockedValue { $0 }.filter { $0.level >= .warning }.map(\.text), [])
        }
    }

    func testTheEndOfAHeadIsItsFirstBlankLine() {
        XCTAssertEqual(WebSocketSwitchWatcher.endOfHead(in: Array("GET / HTTP/1.1\r\nA: b\r\n\r\nmore\r\n\r\n".utf8)), 24)
        XCTAssertNil(WebSocketSwitchWatcher.endOfHead(in: Array("GET / HTTP/1.1\r\nA: b\r\n\r".utf8)))
        XCTAssertNil(WebSocketSwitchWatcher.endOfHead(in: Array("GET / HTTP/1.1\n\n".utf8)))
    }

    func testHTTPDatesAreIMFFixdates() {
        XCTAssertEqual(HTTPDate.text(of: 0), "Thu, 01 Jan 1970 00:00:00 GMT")
        XCTAssertEqual(HTTPDate.text(of: 1_796_094_407), "Tue, 01 Dec 2026 03:06:47 GMT")
    }
}
