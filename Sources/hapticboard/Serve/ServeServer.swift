import HapticRuntime
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
                options: ServeChannelOptions(
                    triggersOnEventLoop: answersTriggersOnEventLoop && token == nil && allowedOrigins.isEmpty ? self : nil,
                    webSocketPlaysOnEventLoop: answersTriggersOnEventLoop, token: token.map { ($0, service) }
                ),
                logger: logger
            ),
            configuration: .init(address: address, serverName: Self.serverName),
            onServerRunning: onServerRunning,
            logger: logger
        )
    }
}

/// What `HTTP1WebSocketServeChannel` adds to Hummingbird's channel.
struct ServeChannelOptions: Sendable {
    /// The API whose triggers `EventLoopTriggerHandler` answers after the decoder; nil for none.
    var triggersOnEventLoop: ServeAPI?
    /// Whether `WebSocketSwitchWatcher` puts `WebSocketTriggerHandler` in on a switched connection.
    var webSocketPlaysOnEventLoop: Bool
    /// The listener's token and the service counting refusals, for `WebSocketHandshakeCheck`.
    var token: (value: String, service: HapticService)?
}

/// Hummingbird's HTTP/1.1 and WebSocket channel with `WebSocketHandshakeCheck`,
/// `HTTP10ConnectionHandler` and what `options` ask for.
struct HTTP1WebSocketServeChannel: ServerChildChannel {
    let base: HTTP1WebSocketUpgradeChannel
    let options: ServeChannelOptions
    let logger: Logger

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1WebSocketUpgradeChannel.Value> {
        base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandler(HTTP10ConnectionHandler(), position: .after(decoder))
            try pipeline.addHandler(WebSocketHandshakeCheck(token: options.token), position: .after(decoder))
            // First after the decoder: what it answers, nothing after it sees.
            if let api = options.triggersOnEventLoop { try pipeline.addHandler(EventLoopTriggerHandler(api: api, logger: logger), position: .after(decoder)) }
            if options.webSocketPlaysOnEventLoop { try pipeline.addHandler(WebSocketSwitchWatcher(), position: .first) }
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
    /// `Expect: 100-continue` answered, HTTP/1.0's connection rules kept, a bad handshake answered,
    /// and what `options` ask for.
    static func serve<WebSocketRouter: HTTPResponderBuilder>(webSocketRouter: WebSocketRouter, options: ServeChannelOptions, logger: Logger) -> HTTPServerBuilder
    where WebSocketRouter.Responder.Context: WebSocketRequestContext {
        let webSocketResponder = webSocketRouter.buildResponder()
        return .init { responder in
            HTTP1WebSocketServeChannel(
                base: HTTP1WebSocketUpgradeChannel(responder: responder, webSocketResponder: webSocketResponder, configuration: .serve),
                options: options, logger: logger
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
