import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HapticRuntime
import HardwareMocks
import Logging
import XCTest
@testable import hapticboard

/// `hapticboard serve` on the simulated board, over its real Unix socket and TCP listener: every
/// route, the refusals, arbitration, clients leaving, the event stream, WebSocket and SIGTERM.
final class ServeTests: XCTestCase {
    nonisolated(unsafe) private static var server: Process?
    nonisolated(unsafe) private static var serverOutput: Pipe?
    private static let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hb-serve-\(UUID().uuidString)")
    private static var socketPath: String { folder.appendingPathComponent("hb.sock").path }
    private static let port = 20_000 + Int(ProcessInfo.processInfo.processIdentifier % 20_000)
    private static let token = "test-token-0123456789abcdef"
    /// The web origin whose pages may call the TCP listener.
    private static let kioskOrigin = "http://kiosk.local:8080"

    private var connection: ServiceConnection { ServiceConnection(socketPath: Self.socketPath) }

    override class func setUp() {
        super.setUp()
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let library = folder.appendingPathComponent("library")
        try? FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        try? "loud sharp\n. 0.1s\nsoft dull\n".write(to: library.appendingPathComponent("success.hnl"), atomically: true, encoding: .utf8)
        // Longer than the service's 30 s limit: in the library, but never played.
        try? "loud sharp\n. 31s\nsoft dull\n".write(to: library.appendingPathComponent("too-long.hnl"), atomically: true, encoding: .utf8)
        try? token.write(to: folder.appendingPathComponent("token"), atomically: true, encoding: .utf8)
        try? #"{ "name": "t", "profiles": [ { "name": "quiet", "feedbacks": [ { "event-name": "button-pressed", "type": "VibraRumble", "duration": 12 } ] } ] }"#
            .write(to: folder.appendingPathComponent("theme.json"), atomically: true, encoding: .utf8)
        guard let command = try? BuiltCommand() else { return }
        let (process, _, errorOutput) = command.process([
            "serve", "--socket", socketPath, "--library", library.path, "--theme", folder.appendingPathComponent("theme.json").path,
            "--listen", "127.0.0.1:\(port)", "--token-file", folder.appendingPathComponent("token").path, "--max-triggers-per-second", "200",
            "--allow-origin", kioskOrigin,
        ])
        try? process.run()
        server = process
        serverOutput = errorOutput
        // Start-up: the listeners are up once the socket accepts a connection.
        _ = waitUntil { ServiceConnection.isServing(at: socketPath) || !process.isRunning }
    }

    override class func tearDown() {
        server?.terminate()
        server?.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
        super.tearDown()
    }

    override func setUpWithError() throws {
        guard let server = Self.server else { throw XCTSkip("hapticboard serve could not be run (is the command built?)") }
        guard server.isRunning, ServiceConnection.isServing(at: Self.socketPath) else {
            let output = Self.serverOutput.map { String(decoding: $0.fileHandleForReading.availableData, as: UTF8.self) } ?? ""
            XCTFail("hapticboard serve did not start serving: \(output)")
            throw XCTSkip("no service to test")
        }
    }

    func request(_ method: HTTPMethodName, _ path: String, body: String? = nil) throws -> ServiceConnection.Answer {
        let connection = self.connection
        return try ServiceConnection.blocking { try await connection.request(method.rawValue, path, body: body) }
    }

    private func json(_ answer: ServiceConnection.Answer) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: answer.body) as? [String: Any], String(decoding: answer.body, as: UTF8.self))
    }

    private func errorCode(_ answer: ServiceConnection.Answer) throws -> String? {
        (try json(answer)["error"] as? [String: Any])?["code"] as? String
    }

    /// Trigger answers (HTTP and WebSocket) are written without JSONEncoder; they must be the bytes it writes.
    func testTriggerAnswersAreTheBytesJSONEncoderWrites() throws {
        let players = try [
            #"{"id": 7, "name": "impact/rigid", "client": 2, "priority": 0, "actuators": ["main"], "duration": 0.021, "outlivesClient": false}"#,
            #"{"id": 123456, "name": "say \"hi\"\\ \n\t\u0001 ünï/cødé", "client": 0, "priority": -3, "actuators": ["left", "right/2"], "duration": 2, "outlivesClient": true}"#,
            #"{"id": 1, "name": "", "client": 1, "priority": 100, "actuators": [], "duration": 1e-7, "outlivesClient": false}"#,
            #"{"id": 2, "name": "long", "client": 1, "priority": 1, "actuators": ["main"], "duration": 86400.125, "outlivesClient": false}"#,
        ].map { try JSONDecoder().decode(ServicePlayerInfo.self, from: Data($0.utf8)) }
        let responses = players.map { PlayResponse(player: $0, warnings: []) } + [
            PlayResponse(player: players[0], warnings: ["a \"warning\"", "two/lines\nhere"]),
            PlayResponse(player: nil, warnings: ["profile 'silent': nothing plays"]),
        ]
        for response in responses {
            let encoded = String(decoding: try ServeAPI.jsonData(response), as: UTF8.self)
            XCTAssertEqual(TriggerAnswerJSON.text(of: response), encoded)
        }
        XCTAssertNil(TriggerAnswerJSON.text(of: PlayResponse(player: players[0], warnings: [], ended: .finished)), "an answer with wait=true goes through JSONEncoder")
        for id in [nil, JSONValue.number(3), .number(-0.5), .number(1e300), .string("req/1 \"x\"")] {
            for (player, warnings) in [(players[1], [String]()), (nil, ["no actuator"])] {
                let encoded = WebSocketSession.encode(WebSocketSession.Reply(op: "started", id: id, player: player, warnings: warnings))
                XCTAssertEqual(TriggerAnswerJSON.started(id: id, player: player, warnings: warnings), encoded)
            }
        }
        XCTAssertNil(TriggerAnswerJSON.started(id: .number(.infinity), player: players[0], warnings: []), "JSONEncoder's refusal is kept")
    }

    func testHEADAnswersWhatGETWouldWithoutTheBody() throws {
        let url = "http://127.0.0.1:\(Self.port)/openapi.json"
        let head = try Self.exchange("HEAD", url, headers: ["Authorization": "Bearer \(Self.token)"])
        let get = try request(.get, "/openapi.json")
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.headers["content-type"], "application/json")
        XCTAssertEqual(head.headers["content-length"], "\(get.body.count)")
    }

    func testStatusBoardAndOpenAPIAnswer() throws {
        let status = try request(.get, "/status").decoded(ServiceStatus.self)
        XCTAssertEqual(status.board, "sim")
        XCTAssertEqual(status.actuators.map(\.name), ["main"])
        XCTAssertEqual(status.library, ["success", "too-long"])
        XCTAssertEqual(status.theme, "t")
        XCTAssertEqual((try json(request(.get, "/board"))["board"] as? String), "sim")
        XCTAssertEqual((try json(request(.get, "/openapi.json"))["openapi"] as? String), "3.1.0")
        let metrics = try request(.get, "/metrics")
        XCTAssertEqual(metrics.status, 200)
        let exposition = String(decoding: metrics.body, as: UTF8.self)
        XCTAssertTrue(exposition.contains("hapticboard_dispatch_lateness_seconds_bucket{le=\"+Inf\"}"))
        for counter in ["requests", "silent_events", "players_started", "preemptions", "faults", "requests_refused"] {
            XCTAssertTrue(exposition.contains("# TYPE hapticboard_\(counter)_total counter"), counter)
        }
        XCTAssertTrue(exposition.contains("hapticboard_requests_refused_total{code=\""), exposition)
    }

    func testWaitingForAPlayerReportsItsEnd() throws {
        let answer = try request(.post, "/play/notation?wait=true", body: "loud sharp\n. 0.1s\nsoft dull\n")
        XCTAssertEqual(answer.status, 200, String(decoding: answer.body, as: UTF8.self))
        let body = try json(answer)
        XCTAssertEqual(body["ended"] as? String, "finished")
        let report = try XCTUnwrap(body["report"] as? [String: Any])
        XCTAssertGreaterThan(report["commands"] as? Int ?? 0, 0)
        XCTAssertEqual(try request(.post, "/play/library/success?wait=true").status, 200)
        XCTAssertEqual(try request(.post, "/feedback/impact/rigid?intensity=0.5&wait=true").status, 200)
        XCTAssertEqual(try request(.post, "/feedback/notification/error?wait=true").status, 200)
        XCTAssertEqual(try request(.post, "/play/effect/47?wait=true").status, 200)
    }

    func testRefusalsAreJSONWithReasonCodesAndPointers() throws {
        let badAHAP = try request(.post, "/play/ahap", body: #"{ "Pattern": [ { "Event": { "Time": "soon", "EventType": "HapticTransient" } } ] }"#)
        XCTAssertEqual(badAHAP.status, 400)
        let error = try XCTUnwrap(try json(badAHAP)["error"] as? [String: Any])
        XCTAssertEqual(error["code"] as? String, "invalid-content")
        XCTAssertEqual(error["pointer"] as? String, "/Pattern/0/Event/Time")
        XCTAssertEqual(error["line"] as? Int, 1)
        XCTAssertEqual(try errorCode(request(.post, "/play/library/sucess")), "not-in-library")
        XCTAssertEqual(try request(.post, "/play/effect/124").status, 400)
        XCTAssertEqual(try errorCode(request(.post, "/play/notation?priority=high", body: "loud sharp")), "invalid-request")
        XCTAssertEqual(try errorCode(request(.post, "/play/notation?volume=11", body: "loud sharp")), "invalid-request")
        XCTAssertEqual(try errorCode(request(.post, "/play/notation?actuator=left", body: "loud sharp")), "unknown-actuator")
        XCTAssertEqual(try errorCode(request(.post, "/feedback/selection?actuator=")), "invalid-request", "an empty name is not every actuator")
        XCTAssertEqual(try errorCode(request(.post, "/feedback/selection?actuator=main,")), "invalid-request")
        for flag in ["wait=", "outlive=1", "wait"] {
            XCTAssertEqual(try errorCode(request(.post, "/feedback/selection?\(flag)")), "invalid-request", "\(flag): a boolean is true or false")
        }
        XCTAssertEqual(try errorCode(request(.put, "/profile", body: #"{"profile": "quiet", "volume": 3}"#)), "invalid-request")
        XCTAssertEqual(try errorCode(request(.post, "/prepare", body: #"{"keepAwakeMs": "long"}"#)), "invalid-request")
        XCTAssertEqual(try errorCode(request(.post, "/events/phone-incoming-call")), "unknown-event")
        XCTAssertEqual(try request(.get, "/no-such-route").status, 404)
        let empty = try request(.post, "/play/notation")
        XCTAssertEqual(empty.status, 400)
        XCTAssertEqual(try errorCode(empty), "invalid-content", "a play without content is a client's mistake, not silence")
        let tooLarge = try request(.post, "/play/notation", body: String(repeating: "# padding\n", count: 120_000))
        XCTAssertEqual(tooLarge.status, 413)
        XCTAssertEqual(try errorCode(tooLarge), "body-too-large")
        XCTAssertEqual(try request(.get, "/status").status, 200, "the service keeps serving")
    }

    /// curl and other libraries ask before sending a larger body; without `100 Continue` curl waits
    /// a second for it before every such request.
    func testAClientThatExpects100ContinueIsToldToSendItsBody() throws {
        let body = #"{ "Version": 1, "Pattern": [ { "Event": { "Time": 0, "EventType": "HapticTransient" } } ] }"#
        let connection = try RawHTTPConnection(socketPath: Self.socketPath, receiveTimeout: .seconds(30))
        for _ in 0..<2 {
            try connection.send(raw: "POST /play/ahap HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(body.utf8.count)\r\nExpect: 100-Continue\r\n\r\n")
            XCTAssertEqual(try connection.readResponse(), 100, "before the body is sent")
            try connection.send(raw: body)
            XCTAssertEqual(try connection.readResponse(), 201)
        }
    }

    /// An HTTP/1.0 client that did not ask for keep-alive (ApacheBench without -k, old scripts)
    /// reads until the server closes; one that asked keeps its connection and is told so.
    func testHTTP10ConnectionsCloseUnlessTheyAskForKeepAlive() throws {
        let once = try RawHTTPConnection(socketPath: Self.socketPath, receiveTimeout: .seconds(30))
        try once.send(raw: "GET /status HTTP/1.0\r\n\r\n")
        XCTAssertEqual(try once.readResponse(), 200)
        XCTAssertTrue(once.lastHead.lowercased().contains("\r\nconnection: close"), once.lastHead)
        XCTAssertTrue(try once.isClosedByTheService(), "closed after the answer")

        let kept = try RawHTTPConnection(socketPath: Self.socketPath, receiveTimeout: .seconds(30))
        for _ in 0..<2 {
            try kept.send(raw: "POST /feedback/selection HTTP/1.0\r\nConnection: Keep-Alive\r\nContent-Length: 0\r\n\r\n")
            XCTAssertEqual(try kept.readResponse(), 201)
            XCTAssertTrue(kept.lastHead.lowercased().contains("\r\nconnection: keep-alive"), kept.lastHead)
        }
        // HTTP/1.1 stays as it was: kept open without a Connection header.
        try kept.send(raw: "GET /status HTTP/1.1\r\nHost: localhost\r\n\r\n")
        XCTAssertEqual(try kept.readResponse(), 200)
        XCTAssertFalse(kept.lastHead.lowercased().contains("connection:"), kept.lastHead)
    }

    /// A path the API has, asked with a method it does not answer, is 405 with `Allow` (RFC 9110
    /// §15.5.6); `GET /ws` without the upgrade is 426 with `Upgrade: websocket` (§15.5.22).
    func testAWrongMethodIs405WithAllowAndAPlainGETOfTheWebSocketIs426() throws {
        let connection = try RawHTTPConnection(socketPath: Self.socketPath, receiveTimeout: .seconds(30))
        func head(_ requestLine: String) throws -> (status: Int, head: String) {
            try connection.send(raw: "\(requestLine) HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n\r\n")
            let status = try connection.readResponse()
            return (status, connection.lastHead.lowercased())
        }
        for (requestLine, allowed) in [("TRACE /status", "get, head"), ("PUT /players", "delete, get, head"), ("GET /players/7", "delete"), ("DELETE /play/effect/47", "post")] {
            let answer = try head(requestLine)
            XCTAssertEqual(answer.status, 405, requestLine)
            XCTAssertTrue(answer.head.contains("\r\nallow: \(allowed)"), "\(requestLine): \(answer.head)")
        }
        XCTAssertEqual(try head("GET /no-such-route").status, 404)
        let plain = try head("GET /ws")
        XCTAssertEqual(plain.status, 426)
        XCTAssertTrue(plain.head.contains("\r\nupgrade: websocket"), plain.head)
    }

    /// A WebSocket handshake that cannot succeed is answered (RFC 6455 §4.2.1–4.2.2): 400 without
    /// a 16-byte Sec-WebSocket-Key or a version, for another method than GET or with a body, 404
    /// elsewhere than /ws, 426 with the version spoken for another version;
    /// NIO's upgrader alone closed the connection without any answer. A good one still upgrades.
    func testABadWebSocketHandshakeIsAnsweredWithWhatIsWrong() throws {
        func handshake(_ headers: String, method: String = "GET", path: String = "/ws", body: String = "") throws -> (status: Int, head: String, closed: Bool) {
            let connection = try RawHTTPConnection(socketPath: Self.socketPath, receiveTimeout: .seconds(30))
            try connection.send(raw: "\(method) \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\(headers)\r\n\(body)")
            let status = try connection.readResponse(toHEAD: method == "HEAD")
            return (status, connection.lastHead.lowercased(), status == 101 ? false : try connection.isClosedByTheService())
        }
        let key = "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        for missing in ["Sec-WebSocket-Version: 13\r\n", "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: c2hvcnQ=\r\n", key] {
            let answer = try handshake(missing)
            XCTAssertEqual(answer.status, 400, missing)
            XCTAssertTrue(answer.head.contains("content-type: application/json"), answer.head)
            XCTAssertTrue(answer.closed, "the connection ends after the answer")
        }
        // Only a GET without a body is a handshake (RFC 6455 §4.1).
        for (method, body) in [("HEAD", ""), ("POST", ""), ("GET", "abc")] {
            let answer = try handshake(key + "Sec-WebSocket-Version: 13\r\nContent-Length: \(body.utf8.count)\r\n", method: method, body: body)
            XCTAssertEqual(answer.status, 400, method + body)
            XCTAssertTrue(answer.closed, "the connection ends after the answer")
        }
        // Only /ws is a WebSocket: another path is a 404 that says so, not Hummingbird's empty 400.
        let elsewhere = try handshake(key + "Sec-WebSocket-Version: 13\r\n", path: "/status")
        XCTAssertEqual(elsewhere.status, 404)
        XCTAssertTrue(elsewhere.head.contains("content-type: application/json"), elsewhere.head)
        XCTAssertTrue(elsewhere.closed, "the connection ends after the answer")
        let otherVersion = try handshake(key + "Sec-WebSocket-Version: 8\r\n")
        XCTAssertEqual(otherVersion.status, 426)
        XCTAssertTrue(otherVersion.head.contains("\r\nsec-websocket-version: 13"), otherVersion.head)
        XCTAssertEqual(try handshake(key + "Sec-WebSocket-Version: 13\r\n").status, 101)
    }

    /// A WebSocket handshake without the token is refused as any request on the TCP listener is:
    /// 401 with the JSON refusal and `WWW-Authenticate: Bearer`, then the connection ends. Refused
    /// inside the upgrade, Hummingbird answered it 400 with no body.
    func testAWebSocketHandshakeWithoutTheTokenIsUnauthorized() throws {
        let handshake = "HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        for (query, authorization) in [("", ""), ("?token=wrong", ""), ("", "Authorization: Bearer wrong\r\n")] {
            let connection = try RawHTTPConnection(loopbackPort: Self.port, receiveTimeout: .seconds(30))
            try connection.send(raw: "GET /ws\(query) \(handshake)\(authorization)\r\n")
            XCTAssertEqual(try connection.readResponse(), 401, query + authorization)
            XCTAssertTrue(connection.lastHead.lowercased().contains("\r\nwww-authenticate: bearer"), connection.lastHead)
            XCTAssertTrue(String(decoding: connection.lastBody, as: UTF8.self).contains(#""code":"unauthorized""#))
            XCTAssertTrue(try connection.isClosedByTheService())
        }
        for (query, authorization) in [("?token=\(Self.token)", ""), ("", "Authorization: Bearer \(Self.token)\r\n")] {
            let connection = try RawHTTPConnection(loopbackPort: Self.port, receiveTimeout: .seconds(30))
            try connection.send(raw: "GET /ws\(query) \(handshake)\(authorization)\r\n")
            XCTAssertEqual(try connection.readResponse(), 101, query + authorization)
        }
    }

    /// A kiosk page served from another origin calls the TCP listener as a browser does: a
    /// preflight (no token) first, then the request with the token; a page from elsewhere gets no
    /// CORS headers, so its browser keeps the answer from it.
    func testAKioskPageFromAnAllowedOriginMayCallTheTCPListener() throws {
        let base = "http://127.0.0.1:\(Self.port)"
        let preflight = try Self.exchange("OPTIONS", base + "/feedback/impact/rigid", headers: [
            "Origin": Self.kioskOrigin, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization",
        ])
        XCTAssertEqual(preflight.status, 204)
        XCTAssertEqual(preflight.headers["access-control-allow-origin"], Self.kioskOrigin)
        XCTAssertTrue(preflight.headers["access-control-allow-methods"]?.contains("POST") == true, "\(preflight.headers)")
        XCTAssertTrue(preflight.headers["access-control-allow-headers"]?.lowercased().contains("authorization") == true, "\(preflight.headers)")

        let played = try Self.exchange("POST", base + "/feedback/impact/rigid", headers: ["Origin": Self.kioskOrigin, "Authorization": "Bearer \(Self.token)"])
        XCTAssertEqual(played.status, 201)
        XCTAssertEqual(played.headers["access-control-allow-origin"], Self.kioskOrigin)
        let refused = try Self.exchange("POST", base + "/feedback/impact/rigid", headers: ["Origin": Self.kioskOrigin])
        XCTAssertEqual(refused.status, 401)
        XCTAssertEqual(refused.headers["access-control-allow-origin"], Self.kioskOrigin, "the page can read why")

        let elsewhere = try Self.exchange("OPTIONS", base + "/feedback/impact/rigid", headers: [
            "Origin": "http://elsewhere.example", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization",
        ])
        XCTAssertNil(elsewhere.headers["access-control-allow-origin"])
        XCTAssertNotEqual(elsewhere.status, 204)
    }

    func testAllowOriginTakesWhatBrowsersSendAsOrigin() {
        for origin in ["http://localhost:8080", "https://kiosk.example", "null", "*"] { XCTAssertTrue(TCPListener.isOrigin(origin), origin) }
        for text in ["localhost:8080", "http://kiosk.example/page.html", "", "http://", "://host"] { XCTAssertFalse(TCPListener.isOrigin(text), text) }
    }

    /// One request over HTTP with `headers`; the status and the answer's headers, names lowercased.
    private static func exchange(_ method: String, _ url: String, headers: [String: String]) throws -> (status: Int, headers: [String: String]) {
        var built = URLRequest(url: try XCTUnwrap(URL(string: url)))
        built.httpMethod = method
        for (name, value) in headers { built.setValue(value, forHTTPHeaderField: name) }
        let request = built
        let answer = try ServiceConnection.blocking { () async throws -> HTTPAnswerHead in
            let (_, response) = try await URLSession.shared.data(for: request)
            guard let response = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
            let fields = response.allHeaderFields.reduce(into: [String: String]()) { fields, field in
                if let name = field.key as? String, let value = field.value as? String { fields[name.lowercased()] = value }
            }
            return HTTPAnswerHead(status: response.statusCode, headers: fields)
        }
        return (answer.status, answer.headers)
    }

    func testAHigherPriorityPreemptsAndALowerOneIsBusy() throws {
        let long = "continuous 3s:\n  intensity: loud\n"
        let background = try json(request(.post, "/play/notation?outlive=true&priority=1", body: long))
        let backgroundID = try XCTUnwrap((background["player"] as? [String: Any])?["id"] as? Int)
        XCTAssertEqual(try errorCode(request(.post, "/play/notation?outlive=true&priority=0", body: long)), "busy")
        let alarm = try request(.post, "/play/notation?outlive=true&priority=9", body: long)
        XCTAssertEqual(alarm.status, 201)
        let players = try request(.get, "/players").decoded([ServicePlayerInfo].self)
        XCTAssertFalse(players.contains { $0.id == backgroundID }, "preempted")
        XCTAssertEqual(try request(.delete, "/players").status, 200)
        XCTAssertEqual(try request(.get, "/players").decoded([ServicePlayerInfo].self), [])
    }

    func testFeedbackStopsWhenItsConnectionClosesUnlessItOutlivesIt() throws {
        let events = try eventStream(closingAfter: { $0.contains("client-left") })
        // One request per connection: the player's client is gone as soon as the answer is read.
        let started = try request(.post, "/play/notation", body: "continuous 5s:\n  intensity: loud\n")
        XCTAssertEqual(started.status, 201)
        let id = try XCTUnwrap((try json(started)["player"] as? [String: Any])?["id"] as? Int)
        let ended = {
            events.all.lazy.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                .first { $0["event"] as? String == "player-ended" && $0["id"] as? Int == id }
        }
        XCTAssertTrue(waitUntil { ended() != nil }, "\(events.all)")
        XCTAssertEqual(ended()?["reason"] as? String, "client-left", "the player outlived its client")
        XCTAssertEqual(try request(.delete, "/players").status, 200)
    }

    func testNamedEventsFollowTheProfile() throws {
        XCTAssertEqual(try request(.put, "/profile", body: #"{"profile": "silent"}"#).status, 200)
        let silent = try json(request(.post, "/events/button-pressed?wait=true"))
        XCTAssertNil(silent["player"], "silent gives the event no vibra")
        XCTAssertEqual(try request(.put, "/profile", body: #"{"profile": "full"}"#).status, 200)
        let full = try json(request(.post, "/events/button-pressed?wait=true"))
        XCTAssertEqual(full["ended"] as? String, "finished")
    }

    func testTheEventStreamShowsPlayersStartAndEnd() throws {
        let lines = try eventStream(closingAfter: { $0.contains("player-ended") })
        XCTAssertEqual(try request(.post, "/play/notation?wait=true", body: "loud sharp\n").status, 200)
        XCTAssertTrue(waitUntil { lines.all.contains { $0.contains("player-ended") } }, "\(lines.all)")
        XCTAssertTrue(lines.all.contains { $0.contains(#""event":"player-started""#) }, "\(lines.all)")
        XCTAssertTrue(lines.all.contains { $0.contains(#""reason":"finished""#) }, "\(lines.all)")
    }

    /// The service's event stream read on a thread of its own, once its first line has arrived
    /// (from then on no event is missed); the reader closes it after a line `closingAfter` accepts,
    /// so the shared service is not left holding it open.
    private func eventStream(at socketPath: String = ServeTests.socketPath, closingAfter last: @escaping @Sendable (String) -> Bool = { _ in false }) throws -> LineBox {
        let connection = ServiceConnection(socketPath: socketPath)
        let lines = LineBox()
        let reader = Thread {
            do {
                try ServiceConnection.blocking {
                    try await connection.events { line in
                        lines.append(line)
                        return !last(line)
                    }
                }
                lines.finish(nil)
            } catch {
                lines.finish(error)
            }
        }
        reader.start()
        XCTAssertTrue(waitUntil { !lines.all.isEmpty }, "the stream's first line")
        return lines
    }

    func testTheTCPListenerNeedsTheTokenAndServesWebSocketTriggers() throws {
        let port = Self.port
        let listener = ServiceEndpoint.tcp(host: "127.0.0.1", port: port)
        let token = Self.token
        let refused = try ServiceConnection.blocking { try await ServiceConnection.request("GET", "/status", at: listener) }
        XCTAssertEqual(refused.status, 401)
        XCTAssertEqual(try errorCode(refused), "unauthorized")
        XCTAssertEqual(try ServiceConnection.blocking { try await ServiceConnection.request("GET", "/status", at: listener, token: token) }.status, 200)

        let replies = LineBox()
        try ServiceConnection.blocking {
            try await ServiceWebSocket.session("/ws?token=\(token)", at: listener) { socket in
                try await socket.send(#"{"op": "play", "notation": "loud sharp", "id": 7}"#)
                try await socket.send(#"{"op": "play", "effect": 500, "id": 8}"#)
                try await socket.send(#"{"op": "dance"}"#)
                // One frame of 200 KB, as client libraries and browsers send a long message.
                let padding = String(repeating: "# a long comment\\n", count: 12_000)
                try await socket.send(#"{"op": "play", "notation": "\#(padding)soft dull", "id": 9}"#)
                // JSON in a binary message, as Node's ws sends a Buffer; bytes that are not UTF-8.
                try await socket.send(binary: Array(#"{"op": "play", "effect": 1, "id": 10}"#.utf8))
                try await socket.send(binary: [0x7B, 0xFF, 0x7D])
                for _ in 0..<6 {
                    guard let reply = try await socket.receive() else { break }
                    replies.append(reply)
                }
            }
        }
        let all = replies.all
        XCTAssertEqual(all.count, 6, "\(all)")
        XCTAssertTrue(all[3].contains(#""op":"started""#) && all[3].contains(#""id":9"#), all[3])
        XCTAssertTrue(all[4].contains(#""op":"started""#) && all[4].contains(#""id":10"#), all[4])
        XCTAssertTrue(all[5].contains(#""op":"error""#) && all[5].contains("UTF-8"), all[5])
        XCTAssertTrue(all[0].contains(#""op":"started""#) && all[0].contains(#""id":7"#), all[0])
        XCTAssertTrue(all[1].contains(#""code":"invalid-request""#) && all[1].contains(#""id":8"#), all[1])
        XCTAssertTrue(all[2].contains("unknown op 'dance'"), all[2])
    }

    /// SIGTERM mid-pattern: the players stop, the actuators go to standby, the socket goes, exit 0.
    func testSIGTERMMidPatternStopsEverythingAndExitsZero() throws {
        let socket = Self.folder.appendingPathComponent("term.sock").path
        let (process, output, errorOutput) = try BuiltCommand().process(["serve", "--socket", socket])
        try process.run()
        XCTAssertTrue(waitUntil { ServiceConnection.isServing(at: socket) || !process.isRunning })
        let connection = ServiceConnection(socketPath: socket)
        // An open event stream must not hold up the shutdown.
        let events = try eventStream(at: socket)
        let started = try ServiceConnection.blocking { try await connection.request("POST", "/play/notation?outlive=true", body: "continuous 10s:\n  intensity: loud\n") }
        XCTAssertEqual(started.status, 201)
        XCTAssertTrue(waitUntil { events.all.contains { $0.contains("player-started") } })
        process.terminate()
        let run = BuiltCommand.finish(process, output: output, errorOutput: errorOutput)
        XCTAssertEqual(run.status, 0, run.errorOutput)
        XCTAssertTrue(run.errorOutput.contains("every actuator stopped and in standby"), run.errorOutput)
        XCTAssertFalse(FileManager.default.fileExists(atPath: socket))
        // The stream ended as a response ends (its last chunk), not by the connection breaking
        // when the process went: the server finished it at shutdown instead of waiting on it.
        XCTAssertTrue(waitUntil { events.ended })
        XCTAssertNil(events.failure, "the event stream broke instead of ending")
        XCTAssertTrue(events.all.contains { $0.contains("player-ended") && $0.contains(#""reason":"shut-down""#) }, "\(events.all)")
    }

    /// The served document is the checked-in one with this service's names as enums: its board's
    /// actuators, the library items it plays (not the one over its limit) and its theme's events.
    /// Every value the document allows in a feedback path plays: a client generating requests from
    /// it (Schemathesis does) meets no schema-valid request that is refused.
    func testTheServedDocumentNamesWhatThisServicePlays() throws {
        let served = try json(request(.get, "/openapi.json"))
        /// The enum of the schema at `path`: a parameter's, or the first of a list of parameters'.
        func enumeration(_ path: [String]) -> [String]? {
            var node: Any? = served
            for key in path { node = (node as? [String: Any])?[key] }
            let schema = ((node as? [[String: Any]])?.first?["schema"] ?? (node as? [String: Any])?["schema"]) as? [String: Any]
            return schema?["enum"] as? [String]
        }
        XCTAssertEqual(enumeration(["components", "parameters", "actuator"]), ["main"])
        XCTAssertEqual(enumeration(["paths", "/play/library/{name}", "post", "parameters"]), ["success"])
        XCTAssertEqual(enumeration(["paths", "/events/{name}", "post", "parameters"]), ["button-pressed"])
        XCTAssertEqual(try errorCode(request(.post, "/play/library/too-long")), "pattern-too-long")

        let paths = try XCTUnwrap(served["paths"] as? [String: Any])
        for path in paths.keys.sorted() where path.hasPrefix("/feedback/") {
            let values = path.hasSuffix("}") ? try XCTUnwrap(enumeration(["paths", path, "post", "parameters"]), path) : [""]
            for value in values {
                let concrete = path.hasSuffix("}") ? String(path[..<path.lastIndex(of: "/")!]) + "/" + value : path
                let answer = try request(.post, concrete + "?actuator=main&wait=true")
                XCTAssertEqual(answer.status, 200, "\(concrete): \(String(decoding: answer.body, as: UTF8.self))")
            }
        }

        // Elsewhere, the checked-in document.
        let checkedIn = try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.text.utf8))
        XCTAssertEqual(Self.differences(served, checkedIn), [
            "/components/parameters/actuator/schema/enum", "/paths/~1events~1{name}/post/parameters/0/schema/enum",
            "/paths/~1play~1library~1{name}/post/parameters/0/schema/enum",
        ])
    }

    /// The document is made once for a set of names and again when they change (a reload).
    func testTheServedDocumentFollowsTheNamesItIsMadeWith() {
        let first = OpenAPIDocument.served(actuators: ["left"], library: [], events: [])
        let second = OpenAPIDocument.served(actuators: ["left", "right"], library: ["tap"], events: [])
        XCTAssertNotEqual(first, second)
        XCTAssertTrue(second.contains("\"right\"") && second.contains("\"tap\""))
        XCTAssertFalse(first.contains("\"right\""))
        XCTAssertEqual(OpenAPIDocument.served(actuators: ["left"], library: [], events: []), first)
    }

    /// JSON pointers (RFC 6901) to where two JSON documents differ, sorted.
    private static func differences(_ first: Any?, _ second: Any?, at path: DocumentKeyPath = DocumentKeyPath()) -> [String] {
        switch (first, second) {
        case (let first as [String: Any], let second as [String: Any]):
            return Set(first.keys).union(second.keys).sorted().flatMap { key in differences(first[key], second[key], at: path.appending(key)) }
        case (let first as [Any], let second as [Any]) where first.count == second.count:
            return zip(first, second).enumerated().flatMap { differences($1.0, $1.1, at: path.appending($0)) }
        case (let first as NSObject, let second as NSObject):
            return first == second ? [] : [path.jsonPointer]
        default:
            return first == nil && second == nil ? [] : [path.jsonPointer]
        }
    }

    /// Every route the router serves is in the OpenAPI document, and every path of the document is served.
    func testTheOpenAPIDocumentDescribesEveryRoute() throws {
        let hardware = SimulatedBoardHardware()
        let board = try CommandBoard.open(Board.simName)
        let service = HapticService(board: board.opened, scheduler: DeadlineScheduler(clock: hardware.virtualClock), library: ContentLibrary(folder: Self.folder))
        let api = ServeAPI(
            service: service, clients: ServeClients(service: service, overrideUIDs: [], tokenHoldersMayOverride: false, logger: Logger(label: "test")),
            board: try BoardShowReport(board: board.opened, calibrations: .init()), metrics: ServeMetrics(service: service)
        )
        let served = Set(api.router(token: nil).routes.map { route in
            "\(route.method) " + "\(route.path)".split(separator: "/").map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }.joined(separator: "/").prepending("/")
        })
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(OpenAPIDocument.text.utf8)) as? [String: Any])
        let paths = try XCTUnwrap(document["paths"] as? [String: [String: Any]])
        let described = Set(paths.flatMap { path, operations in operations.keys.map { "\($0.uppercased()) \(path)" } })
        XCTAssertEqual(served, described)
    }
}

extension ServeTests {
    /// Every event the stream can carry matches the document's Event schema: its `event` is one
    /// of the schema's, with the keys that one requires and no others.
    func testTheOpenAPIDocumentDescribesEveryEvent() throws {
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(OpenAPIDocument.text.utf8)) as? [String: Any])
        let schemas = try XCTUnwrap((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let variants = try XCTUnwrap((schemas["Event"] as? [String: Any])?["oneOf"] as? [[String: Any]])
        var described: [String: (keys: Set<String>, required: Set<String>)] = [:]
        for variant in variants {
            let properties = try XCTUnwrap(variant["properties"] as? [String: Any])
            let name = try XCTUnwrap((properties["event"] as? [String: Any])?["const"] as? String)
            described[name] = (Set(properties.keys), Set(try XCTUnwrap(variant["required"] as? [String])))
        }
        let player = try JSONDecoder().decode(ServicePlayerInfo.self, from: Data(#"{"id": 1, "name": "notation", "client": 2, "priority": 0, "actuators": ["main"], "duration": 0.5, "outlivesClient": false}"#.utf8))
        let events: [ServiceEvent] = [
            .playerStarted(player), .playerEnded(id: 1, reason: .shutDown), .fault(reason: "device lost", message: "gone", actuators: nil),
            .fault(reason: "system error", message: "NACK", actuators: ["a"]),
            .powerTransition(actuator: "main", transition: "wake", from: "off", to: "standby", elapsedMicroseconds: 1, budgetMicroseconds: 2),
            .profileChanged(.quiet), .input(input: "select", kind: "step", direction: -1, edgeNanoseconds: 5, players: [1]),
            .input(input: "select", kind: "press", direction: nil, edgeNanoseconds: 5, players: []),
        ]
        var seen: Set<String> = ["subscribed"]
        for event in events {
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: JSONEncoder().encode(event)) as? [String: Any])
            let name = try XCTUnwrap(object["event"] as? String)
            let schema = try XCTUnwrap(described[name], "event \(name) is not in the document")
            XCTAssertTrue(Set(object.keys).isSubset(of: schema.keys), "\(name): \(object.keys.sorted()) beyond \(schema.keys.sorted())")
            XCTAssertTrue(schema.required.isSubset(of: Set(object.keys)), "\(name): \(schema.required.sorted()) required, sent \(object.keys.sorted())")
            seen.insert(name)
        }
        XCTAssertEqual(seen, Set(described.keys), "events the document describes but nothing sends, or the reverse")
        let ended = try XCTUnwrap(described["player-ended"])
        XCTAssertEqual(ended.required, ["event", "id", "reason"])
    }

    /// Every place the document lists the reasons a player ends lists exactly the service's.
    func testTheOpenAPIDocumentListsEveryEndReason() throws {
        var lists: [[String]] = []
        func collect(_ node: Any) {
            if let object = node as? [String: Any] {
                if let values = object["enum"] as? [String], values.contains("finished") { lists.append(values) }
                object.values.forEach(collect)
            } else if let array = node as? [Any] {
                array.forEach(collect)
            }
        }
        collect(try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.text.utf8)))
        XCTAssertEqual(lists.count, 2, "the play answer's `ended` and the player-ended event")
        for list in lists {
            XCTAssertEqual(list, PlayerEndReason.allCases.map(\.rawValue))
        }
    }
}

/// Polls `condition` until it holds; false only when it never did within `hangGuard` seconds, a
/// bound against a hang, not a timing requirement: a slow or loaded machine only waits longer.
func waitUntil(hangGuard: TimeInterval = 300, _ condition: () throws -> Bool) rethrows -> Bool {
    let giveUp = Date(timeIntervalSinceNow: hangGuard)
    while try !condition() {
        guard Date() < giveUp else { return false }
        Thread.sleep(forTimeInterval: 0.02)
    }
    return true
}

/// The HTTP methods the tests use.
enum HTTPMethodName: String {
    case get = "GET", post = "POST", put = "PUT", delete = "DELETE"
}

/// Lines collected on another thread, and how their stream ended.
final class LineBox: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    private var outcome: (any Error)??

    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }

    /// The stream ended: cleanly (`nil`) or with `error`.
    func finish(_ error: (any Error)?) { lock.withLock { outcome = .some(error) } }
    var ended: Bool { lock.withLock { outcome != nil } }
    var failure: (any Error)? { lock.withLock { outcome ?? nil } }
}

private extension String {
    func prepending(_ prefix: String) -> String { prefix + self }
}

/// What `ServeTests.exchange` reads of an answer.
private struct HTTPAnswerHead: Sendable {
    var status: Int
    var headers: [String: String]
}
