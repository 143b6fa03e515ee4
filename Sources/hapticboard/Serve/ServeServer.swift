import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle

extension ServeAPI {
    /// One listener of the API as `serve` runs it, on `address`: the HTTP routes, WebSocket
    /// upgrades checked against their own router, with `token` required when given. The
    /// benchmark builds its listeners here too, so it measures what `serve` runs.
    func listener(
        at address: BindAddress, token: String? = nil, allowedOrigins: Set<String> = [],
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }, logger: Logger
    ) -> some Service {
        Application(
            router: router(token: token, allowedOrigins: allowedOrigins),
            server: .serve(webSocketRouter: router(token: token, allowedOrigins: allowedOrigins, for: .webSocketUpgrade)),
            configuration: .init(address: address, serverName: "hapticboard"),
            onServerRunning: onServerRunning,
            logger: logger
        )
    }
}

/// Hummingbird's HTTP/1.1 and WebSocket channel with `WebSocketHandshakeCheck` and
/// `HTTP10ConnectionHandler` after its decoder.
struct HTTP1WebSocketServeChannel: ServerChildChannel {
    let base: HTTP1WebSocketUpgradeChannel

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1WebSocketUpgradeChannel.Value> {
        base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandler(HTTP10ConnectionHandler(), position: .after(decoder))
            try pipeline.addHandler(WebSocketHandshakeCheck(), position: .after(decoder))
            return value
        }
    }

    /// The connection's task runs on the event loop that reads its socket: a request's bytes are
    /// decoded and its handler run on one thread, without waking a thread of Swift's global
    /// executor for every request (tens of microseconds on a 2-core board, before the trigger
    /// reaches the engine). Handlers do not block: a long wait (`wait=true`) is an `await`.
    func handle(value: HTTP1WebSocketUpgradeChannel.Value, logger: Logger) async {
        await withTaskExecutorPreference(EventLoopTaskExecutor(value.channel.eventLoop)) {
            await base.handle(value: value, logger: logger)
        }
    }
}

extension HTTPServerBuilder {
    /// The listeners' server: HTTP/1.1 with WebSocket upgrades on `webSocketRouter`'s routes,
    /// `Expect: 100-continue` answered and HTTP/1.0's connection rules kept.
    static func serve<WebSocketRouter: HTTPResponderBuilder>(webSocketRouter: WebSocketRouter) -> HTTPServerBuilder
    where WebSocketRouter.Responder.Context: WebSocketRequestContext {
        let webSocketResponder = webSocketRouter.buildResponder()
        return .init { responder in
            HTTP1WebSocketServeChannel(base: HTTP1WebSocketUpgradeChannel(responder: responder, webSocketResponder: webSocketResponder, configuration: .serve))
        }
    }
}

extension HTTP1WebSocketUpgradeChannel.Configuration {
    /// The listeners' HTTP/1.1 and WebSocket settings: Hummingbird's, with `Expect: 100-continue`
    /// answered (a handler per connection) and WebSocket frames as large as a request body.
    /// Hummingbird's 16 KiB frame limit closed the connection (1009) on any message longer than
    /// that, since clients send a message as one frame: an AHAP file of 20 KB could not be played
    /// over the WebSocket although its messages may be 1 MiB.
    static var serve: Self {
        .init(
            http1: .init(additionalChannelHandlers: [ContinueExpectationHandler()]),
            ws: .init(maxFrameSize: ServeLimits.maximumBodySize)
        )
    }
}
