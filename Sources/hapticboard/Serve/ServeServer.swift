import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle

extension ServeAPI {
    /// The `Server` header of every answer.
    static let serverName = "hapticboard"

    /// One listener of the API as `serve` runs it, on `address`: the HTTP routes, WebSocket
    /// upgrades checked against their own router, with `token` required when given. Without a
    /// token or origins, triggers on a kept-alive connection are answered on the event loop
    /// (`EventLoopTriggerHandler`), and on any listener a WebSocket's `play` messages
    /// (`WebSocketTriggerHandler`, once the upgrade has checked the token and origin), unless
    /// `answersTriggersOnEventLoop` is false. The benchmark builds its listeners here too, so it measures
    /// what `serve` runs.
    func listener(
        at address: BindAddress, token: String? = nil, allowedOrigins: Set<String> = [], answersTriggersOnEventLoop: Bool = true,
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }, logger: Logger
    ) -> some Service {
        Application(
            router: router(token: token, allowedOrigins: allowedOrigins),
            server: .serve(
                webSocketRouter: router(token: token, allowedOrigins: allowedOrigins, for: .webSocketUpgrade),
                triggersOnEventLoop: answersTriggersOnEventLoop && token == nil && allowedOrigins.isEmpty ? self : nil,
                webSocketPlaysOnEventLoop: answersTriggersOnEventLoop, logger: logger
            ),
            configuration: .init(address: address, serverName: Self.serverName),
            onServerRunning: onServerRunning,
            logger: logger
        )
    }
}

/// Hummingbird's HTTP/1.1 and WebSocket channel with `WebSocketHandshakeCheck`,
/// `HTTP10ConnectionHandler` and, given an API, `EventLoopTriggerHandler` after its decoder; with
/// `webSocketPlaysOnEventLoop`, `WebSocketSwitchWatcher` first.
struct HTTP1WebSocketServeChannel: ServerChildChannel {
    let base: HTTP1WebSocketUpgradeChannel
    let triggersOnEventLoop: ServeAPI?
    let webSocketPlaysOnEventLoop: Bool
    let logger: Logger

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1WebSocketUpgradeChannel.Value> {
        base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandler(HTTP10ConnectionHandler(), position: .after(decoder))
            try pipeline.addHandler(WebSocketHandshakeCheck(), position: .after(decoder))
            // First after the decoder: what it answers, nothing after it sees.
            if let api = triggersOnEventLoop { try pipeline.addHandler(EventLoopTriggerHandler(api: api, logger: logger), position: .after(decoder)) }
            if webSocketPlaysOnEventLoop { try pipeline.addHandler(WebSocketSwitchWatcher(), position: .first) }
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
    /// `Expect: 100-continue` answered, HTTP/1.0's connection rules kept and, given an API, its
    /// triggers answered on the event loop; with `webSocketPlaysOnEventLoop`, WebSocket plays too.
    static func serve<WebSocketRouter: HTTPResponderBuilder>(
        webSocketRouter: WebSocketRouter, triggersOnEventLoop: ServeAPI?, webSocketPlaysOnEventLoop: Bool, logger: Logger
    ) -> HTTPServerBuilder
    where WebSocketRouter.Responder.Context: WebSocketRequestContext {
        let webSocketResponder = webSocketRouter.buildResponder()
        return .init { responder in
            HTTP1WebSocketServeChannel(
                base: HTTP1WebSocketUpgradeChannel(responder: responder, webSocketResponder: webSocketResponder, configuration: .serve),
                triggersOnEventLoop: triggersOnEventLoop, webSocketPlaysOnEventLoop: webSocketPlaysOnEventLoop, logger: logger
            )
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
