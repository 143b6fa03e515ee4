import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// Where a service listens: its Unix socket, or its optional TCP listener (which wants a token).
enum ServiceEndpoint: Sendable, CustomStringConvertible {
    case unixSocket(path: String)
    case tcp(host: String, port: Int)

    var description: String {
        switch self {
        case .unixSocket(let path): path
        case .tcp(let host, let port): "\(host):\(port)"
        }
    }

    /// A connection to the endpoint, its pipeline set up by `initializer`.
    func connect<Output: Sendable>(_ initializer: @escaping @Sendable (any Channel) -> EventLoopFuture<Output>) async throws -> Output {
        do {
            let address: SocketAddress
            switch self {
            case .unixSocket(let path): address = try SocketAddress(unixDomainSocketPath: path)
            case .tcp(let host, let port): address = try SocketAddress.makeAddressResolvingHost(host, port: port)
            }
            return try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(.seconds(5))
                .connect(to: address, channelInitializer: initializer)
        } catch let error as IOError {
            throw ServiceRefusal(status: 0, code: "unreachable", message: "no service answers at \(self): \(String(cString: strerror(error.errnoCode))) (is `hapticboard serve` running there?)")
        }
    }
}

/// HTTP/1.1 exchanges with the service through SwiftNIO's HTTP codec (NIOHTTP1). The service
/// listens only on this machine, so no TLS: a client with TLS would carry BoringSSL into every
/// build of the command for nothing.
enum ServiceHTTP {
    /// How long an answer may keep the client waiting with nothing read (a `wait=true` request
    /// answers when its feedback ends; the longest feedback is far shorter).
    static let silenceLimit = TimeAmount.seconds(120)

    /// One request on a connection of its own, which closes with it: the service ties feedback
    /// to its connection, so a connection kept open would keep feedback that should have stopped.
    /// `receive` gets the answer's status once, then its body as it arrives, and returns false to
    /// stop reading (the connection then closes).
    static func exchange(
        _ method: String, _ path: String, at endpoint: ServiceEndpoint, token: String? = nil, body: String? = nil,
        silenceLimit: TimeAmount? = ServiceHTTP.silenceLimit,
        receive: (_ part: AnswerPart) async throws -> Bool
    ) async throws {
        let channel = try await endpoint.connect { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHTTPClientHandlers()
                if let silenceLimit {
                    try channel.pipeline.syncOperations.addHandlers(IdleStateHandler(readTimeout: silenceLimit), CloseWhenIdle())
                }
                return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel)
            }
        }
        try await channel.executeThenClose { inbound, outbound in
            var headers = HTTPHeaders([("Host", "localhost"), ("Connection", "close")])
            if let token { headers.add(name: "Authorization", value: "Bearer \(token)") }
            let bytes = body.map { ByteBuffer(string: $0) }
            if let bytes {
                headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
                headers.add(name: "Content-Length", value: String(bytes.readableBytes))
            } else if method != "GET" {
                headers.add(name: "Content-Length", value: "0")
            }
            var parts: [HTTPClientRequestPart] = [.head(HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: method), uri: path, headers: headers))]
            if let bytes { parts.append(.body(.byteBuffer(bytes))) }
            parts.append(.end(nil))
            // The service may answer and close before the request is all written (a refusal of a
            // body too large, or of anything once its body is read): its answer still counts.
            var writeFailure: (any Error)?
            do {
                try await outbound.write(contentsOf: parts)
            } catch {
                writeFailure = error
            }
            for try await part in inbound {
                switch part {
                case .head(let head):
                    guard try await receive(.status(Int(head.status.code))) else { return }
                case .body(let chunk):
                    guard try await receive(.body(chunk)) else { return }
                case .end:
                    return
                }
            }
            if let writeFailure { throw writeFailure }
            let silence = silenceLimit.map { " (or sent nothing for \($0.nanoseconds / 1_000_000_000) s)" } ?? ""
            throw ServiceRefusal(status: 0, code: "no-answer", message: "the service at \(endpoint) closed the connection before its answer ended\(silence)")
        }
    }

    /// A piece of an answer, in the order it arrives.
    enum AnswerPart {
        case status(Int)
        case body(ByteBuffer)
    }
}

/// Closes a connection when the `IdleStateHandler` before it says nothing was read for too long.
private final class CloseWhenIdle: ChannelInboundHandler, Sendable {
    typealias InboundIn = NIOAny

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent { context.close(promise: nil) } else { context.fireUserInboundEventTriggered(event) }
    }
}

/// A WebSocket connection to the service's `/ws` (text messages of JSON), through SwiftNIO's
/// WebSocket client upgrade (NIOWebSocket): for tests and `bench --service`, which measure the
/// path a kiosk page's WebSocket takes.
final class ServiceWebSocket {
    private var inbound: NIOAsyncChannelInboundStream<WebSocketFrame>.AsyncIterator
    private let outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>

    private init(inbound: NIOAsyncChannelInboundStream<WebSocketFrame>, outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>) {
        self.inbound = inbound.makeAsyncIterator()
        self.outbound = outbound
    }

    /// Opens `path` (e.g. `/ws?token=…`) at `endpoint`, runs `body` with the socket, then closes it
    /// with a normal closure.
    static func session<Value>(_ path: String, at endpoint: ServiceEndpoint, _ body: (ServiceWebSocket) async throws -> Value) async throws -> Value {
        let upgrade = try await endpoint.connect { channel in
            channel.eventLoop.makeCompletedFuture {
                let upgrader = NIOTypedWebSocketClientUpgrader<Upgrade>(upgradePipelineHandler: { channel, _ in
                    channel.eventLoop.makeCompletedFuture {
                        // Whole messages, however the service fragments them.
                        try channel.pipeline.syncOperations.addHandler(NIOWebSocketFrameAggregator(minNonFinalFragmentSize: 1, maxAccumulatedFrameCount: 1 << 10, maxAccumulatedFrameSize: 1 << 20))
                        return Upgrade.upgraded(try NIOAsyncChannel<WebSocketFrame, WebSocketFrame>(wrappingChannelSynchronously: channel))
                    }
                })
                let request = HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: HTTPHeaders([("Host", "localhost"), ("Content-Length", "0")]))
                return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(configuration: .init(upgradeConfiguration: .init(
                    upgradeRequestHead: request, upgraders: [upgrader],
                    notUpgradingCompletionHandler: { channel in channel.eventLoop.makeCompletedFuture { Upgrade.refused } }
                )))
            }
        }
        guard case .upgraded(let channel) = try await upgrade.get() else {
            throw ServiceRefusal(status: 0, code: "no-websocket", message: "the service at \(endpoint) refused the WebSocket upgrade of \(path)")
        }
        return try await channel.executeThenClose { inbound, outbound in
            let socket = ServiceWebSocket(inbound: inbound, outbound: outbound)
            let value = try await body(socket)
            try await socket.close()
            return value
        }
    }

    /// Sends one text message (masked, as a client must).
    func send(_ text: String) async throws {
        try await outbound.write(WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: ByteBuffer(string: text)))
    }

    /// Sends `bytes` as one binary message, as clients that hand over a buffer do.
    func send(binary bytes: [UInt8]) async throws {
        try await outbound.write(WebSocketFrame(fin: true, opcode: .binary, maskKey: .random(), data: ByteBuffer(bytes: bytes)))
    }

    /// The next text message, or nil once the service has closed the socket.
    func receive() async throws -> String? {
        while let frame = try await inbound.next() {
            switch frame.opcode {
            case .text: return String(buffer: frame.unmaskedData)
            case .connectionClose: return nil
            case .ping: try await outbound.write(WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData))
            default: continue
            }
        }
        return nil
    }

    private func close() async throws {
        var code = ByteBuffer()
        code.write(webSocketErrorCode: .normalClosure)
        try await outbound.write(WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: code))
    }

    private enum Upgrade: Sendable {
        case upgraded(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>)
        case refused
    }
}
