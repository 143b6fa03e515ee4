import NIOCore
import NIOWebSocket

/// Puts a `WebSocketTriggerHandler` right after NIO's frame decoder once a connection has
/// switched to WebSocket, before the decoder sees a byte of the client's first frame — and only
/// when it is certain that no frame went past where the handler goes, since the handler keeps
/// answers in order by counting every message the session gets.
///
/// Hummingbird makes the WebSocket pipeline inside NIO's upgrade and hands it over only after the
/// `101` has gone out, so nothing can be put there at the switch itself. This handler sits first
/// in the pipeline, where the connection's bytes arrive, and watches both ways:
///
/// - until the first answer goes out (the `101` on a switched connection), it adds up the bytes
///   read and finds where the first request's head ends (its blank line);
/// - at the first read after that answer: if the frame decoder is there and every byte read before
///   the answer was the first request's head, the handler goes in after the decoder, then the read
///   goes on. A client must wait for the `101` before it sends a frame (RFC 6455 §4.1); one that
///   did not, or bytes read while the pipeline was still being switched, leave the connection to
///   the session alone.
///
/// It leaves the pipeline at that read, so on a connection that never switched it costs one
/// look at the pipeline.
final class WebSocketSwitchWatcher: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    /// A head longer than this is not looked into: no WebSocket handshake is near it.
    static let longestHead = 16 * 1024

    /// The bytes read before the first answer, while the first request's head has not ended.
    private var head: [UInt8] = []
    /// The length of the first request's head with its blank line, once read.
    private var headLength: Int?
    private var bytesBeforeAnswer = 0
    private var hasAnswered = false
    /// The connection's WebSocket session, if it started before the first frame came
    /// (`WebSocketTriggerHandler.attach(_:to:)`): the handler gets it.
    var session: WebSocketSession?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data)
        guard hasAnswered else {
            bytesBeforeAnswer += bytes.readableBytes
            if headLength == nil, head.count < Self.longestHead {
                head += bytes.readableBytesView.prefix(Self.longestHead - head.count)
                headLength = Self.endOfHead(in: head)
            }
            return context.fireChannelRead(data)
        }
        let pipeline = context.pipeline.syncOperations
        if headLength == bytesBeforeAnswer, let decoder = try? pipeline.handler(type: ByteToMessageHandler<WebSocketFrameDecoder>.self) {
            try? pipeline.addHandler(WebSocketTriggerHandler(session: session), position: .after(decoder))
        }
        context.fireChannelRead(data)
        pipeline.removeHandler(context: context, promise: nil)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if !hasAnswered {
            hasAnswered = true
            head = []
        }
        context.write(data, promise: promise)
    }

    /// Where the first blank line (CR LF CR LF) in `bytes` ends.
    static func endOfHead(in bytes: [UInt8]) -> Int? {
        let blankLine: [UInt8] = [13, 10, 13, 10]
        guard bytes.count >= blankLine.count else { return nil }
        return (0...(bytes.count - blankLine.count)).first { bytes[$0..<($0 + blankLine.count)].elementsEqual(blankLine) }.map { $0 + blankLine.count }
    }
}
