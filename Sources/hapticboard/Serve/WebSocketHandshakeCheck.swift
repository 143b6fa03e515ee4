import Foundation
import HapticRuntime
import HummingbirdCore
import NIOCore
import NIOHTTP1

/// Answers a WebSocket opening handshake that cannot succeed with an HTTP error, as RFC 6455
/// §4.2.1–4.2.2 asks: 404 for a path that is not the API's WebSocket (`/ws`); 400 Bad Request for
/// a method other than GET, a body, a missing or malformed `Sec-WebSocket-Key` or a missing
/// `Sec-WebSocket-Version`; 426 Upgrade Required with `Sec-WebSocket-Version: 13` for another
/// version. NIO's upgrader fails such a request and closes the connection without a word, or
/// Hummingbird answers 400 with no body: the client could not tell what it did wrong.
///
/// On a listener that needs a token, a handshake without it is answered 401 with the routes' JSON
/// refusal, as every other request is: refused inside the upgrade, Hummingbird answered it 400
/// with no body.
///
/// It sits after NIO's HTTP decoder, before the upgrade handler, and looks at the connection's
/// first request only, as the upgrade handler does; a handshake it refuses ends the connection
/// after the answer (the upgrade handler is still waiting for that request's upgrade, and is told
/// that no more input comes, so the end is not logged as a failed upgrade).
final class WebSocketHandshakeCheck: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// The one version RFC 6455 defines.
    static let version = "13"
    /// The API's one WebSocket.
    static let webSocketPath = "/ws"

    /// The listener's token, and the service that counts refusals; nil where none is needed.
    private let token: (value: String, service: HapticService)?
    /// Whether the connection's first request was refused: the rest of it is dropped.
    private var refused = false

    init(token: (value: String, service: HapticService)? = nil) {
        self.token = token
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        guard case .head(let head) = unwrapInboundIn(data), Self.asksForWebSocket(head), let refusal = unauthorized(head) ?? Self.refusal(of: head) else {
            context.fireChannelRead(data)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        refused = true
        var headers = HTTPHeaders([("Content-Type", "application/json"), ("Connection", "close")])
        headers.add(contentsOf: refusal.headers)
        let body = (try? ServeAPI.jsonData(ServeError(refusal.error).body)) ?? Data()
        headers.add(name: "Content-Length", value: "\(body.count)")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: refusal.status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            context.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
            context.close(promise: nil)
        }
    }

    /// The refusal of a handshake without the listener's token (it is checked before anything
    /// else, as the routes check it), or nil.
    private func unauthorized(_ head: HTTPRequestHead) -> (status: HTTPResponseStatus, headers: [(String, String)], error: ServiceError)? {
        guard let token, !BearerTokenMiddleware.carries(token.value, authorization: head.headers.first(name: "authorization"), uri: URI(head.uri)) else { return nil }
        return (.unauthorized, [("WWW-Authenticate", "Bearer")], BearerTokenMiddleware.refusal(counting: token.service))
    }

    /// `Connection: upgrade` and `Upgrade: websocket` (tokens, in any case): what NIO's upgrade
    /// handler hands to its WebSocket upgrader.
    static func asksForWebSocket(_ head: HTTPRequestHead) -> Bool {
        func tokens(_ name: String) -> [String] {
            head.headers[name].flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        }
        return tokens("connection").contains("upgrade") && tokens("upgrade").contains("websocket")
    }

    /// Why the handshake cannot succeed, or nil when it can.
    static func refusal(of head: HTTPRequestHead) -> (status: HTTPResponseStatus, headers: [(String, String)], error: ServiceError)? {
        // A handshake without what RFC 6455 §4.1 requires is malformed (400); a version it does
        // not speak is answered with the one it does (426, §4.2.2). NIO's upgrader took a HEAD
        // and switched, and took a body and failed after its 101.
        let path = URI(head.uri).path
        guard path == Self.webSocketPath else {
            return (.notFound, [], ServiceError(.invalidRequest, "no WebSocket at \(path): the API's WebSocket is \(Self.webSocketPath)"))
        }
        guard head.method == .GET else {
            return (.badRequest, [], ServiceError(.invalidRequest, "a WebSocket handshake is a GET request, not \(head.method.rawValue) (RFC 6455 §4.1)"))
        }
        guard head.headers["content-length"].allSatisfy({ $0 == "0" }), !head.headers.contains(name: "transfer-encoding") else {
            return (.badRequest, [], ServiceError(.invalidRequest, "a WebSocket handshake has no body"))
        }
        let keys = head.headers["sec-websocket-key"]
        let versions = head.headers["sec-websocket-version"]
        // The key is a 16-byte nonce in base64, sent once.
        guard keys.count == 1, let nonce = Data(base64Encoded: keys[0]), nonce.count == 16 else {
            return (.badRequest, [], ServiceError(.invalidRequest, "a WebSocket handshake needs one Sec-WebSocket-Key: 16 random bytes in base64"))
        }
        guard versions.count == 1 else {
            return (.badRequest, [], ServiceError(.invalidRequest, "a WebSocket handshake needs one Sec-WebSocket-Version: \(version)"))
        }
        guard versions[0] == version else {
            return (.upgradeRequired, [("Sec-WebSocket-Version", version)],
                    ServiceError(.invalidRequest, "Sec-WebSocket-Version \(versions[0]): this service speaks WebSocket version \(version) (RFC 6455)"))
        }
        return nil
    }
}
