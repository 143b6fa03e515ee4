import Foundation
import NIOCore
import NIOWebSocket

/// Answers a `/ws` connection's `play` messages on the event loop that decoded their frames, as
/// `WebSocketSession` answers them, without passing them through Hummingbird's WebSocket handler,
/// its message stream and the session's task: about 100 µs of a WebSocket trigger's 320 at p50
/// before (`hapticboard bench --service`, docs/service.md).
///
/// It sits right after NIO's frame decoder, put there once the connection has switched, and takes
/// a message only where the session's answer, in the session's order, is certain:
///
/// - the message is one final, unfragmented text frame without extension bits whose JSON is an
///   object with `"op": "play"`;
/// - every message passed on so far has been answered — the session answers each text message with
///   exactly one text frame, which this handler sees go out — so answers stay in order.
///
/// A binary message, a fragmented one or `subscribe` (after which events go out beside the
/// answers) makes it pass everything on from then on; so does a close, either way. Control frames
/// always pass. A connection's messages before the handler is in place reach the session.
final class WebSocketTriggerHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let session: WebSocketSession
    /// Messages passed on to the session whose answers have not gone out yet.
    private var unanswered = 0
    /// Whether it only passes frames on, for the rest of the connection.
    private var passesEverything = false

    init(session: WebSocketSession) {
        self.session = session
    }

    /// Puts a handler for `session` after `channel`'s frame decoder; where there is none (not a
    /// switched connection) the session answers everything, as it would anyway.
    static func insert(for session: WebSocketSession, into channel: any Channel) async {
        try? await channel.eventLoop.submit {
            let pipeline = channel.pipeline.syncOperations
            let decoder = try pipeline.handler(type: ByteToMessageHandler<WebSocketFrameDecoder>.self)
            try pipeline.addHandler(WebSocketTriggerHandler(session: session), position: .after(decoder))
        }.get()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        guard !passesEverything else { return context.fireChannelRead(data) }
        switch frame.opcode {
        case .text where frame.fin && !frame.rsv1 && !frame.rsv2 && !frame.rsv3:
            let object = try? JSONSerialization.jsonObject(with: Data(frame.unmaskedData.readableBytesView)) as? [String: Any]
            let op = object?["op"] as? String
            if unanswered == 0, op == "play", let object {
                answer(object, context: context)
                return
            }
            if op == "subscribe" { passesEverything = true }
            unanswered += 1
        case .ping, .pong:
            break
        default:
            // Binary, fragmented, a close, or what NIO's decoder lets through for the session to refuse.
            passesEverything = true
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data).opcode {
        case .text: unanswered -= 1
        case .connectionClose: passesEverything = true
        default: break
        }
        context.write(data, promise: promise)
    }

    private func answer(_ object: [String: Any], context: ChannelHandlerContext) {
        let id = object["id"].flatMap(JSONValue.init)
        let reply: String
        do {
            reply = try session.play(object, id: id)
        } catch {
            reply = WebSocketSession.errorReply(error, id: id)
        }
        session.api.triggersAnsweredOnEventLoop.withLockedValue { $0 += 1 }
        let frame = WebSocketFrame(fin: true, opcode: .text, data: context.channel.allocator.buffer(string: reply))
        context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
    }
}
