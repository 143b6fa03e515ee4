import Foundation
import NIOCore
import NIOWebSocket

/// Answers a `/ws` connection's `play` messages on the event loop that decoded their frames, as
/// `WebSocketSession` answers them, without passing them through Hummingbird's WebSocket handler,
/// its message stream and the session's task (docs/service.md, "Triggers answered on the event
/// loop").
///
/// `WebSocketSwitchWatcher` puts it right after NIO's frame decoder before the connection's first
/// frame comes, so it sees every message; it answers nothing until the session is attached
/// (`attach(_:to:)`, as the session starts). It takes a message only where the session's answer,
/// in the session's order, is certain:
///
/// - the message is one final, unfragmented text frame without extension bits whose JSON is an
///   object with `"op": "play"`;
/// - every message passed on so far has been answered — the session answers each text message with
///   exactly one text frame, which this handler sees go out — so answers stay in order.
///
/// A binary message, a fragmented one or `subscribe` (after which events go out beside the
/// answers) makes it pass everything on from then on; so does a close, either way, and a text
/// frame going out that no message it counted asked for. Control frames always pass.
final class WebSocketTriggerHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    /// The connection's session once it has started; until then every message goes to it.
    private var session: WebSocketSession?
    /// Messages passed on to the session whose answers have not gone out yet.
    private var unanswered = 0
    /// Whether it only passes frames on, for the rest of the connection.
    private var passesEverything = false

    init(session: WebSocketSession?) {
        self.session = session
    }

    /// Gives `channel`'s handler the session that answers what it passes on — or, when its first
    /// frame has not come yet, the `WebSocketSwitchWatcher` that will put the handler in.
    static func attach(_ session: WebSocketSession, to channel: any Channel) async {
        try? await channel.eventLoop.submit { attach(session, in: channel.pipeline.syncOperations) }.get()
    }

    /// `attach(_:to:)` on the event loop.
    static func attach(_ session: WebSocketSession, in pipeline: ChannelPipeline.SynchronousOperations) {
        if let handler = try? pipeline.handler(type: WebSocketTriggerHandler.self) {
            handler.session = session
        } else if let watcher = try? pipeline.handler(type: WebSocketSwitchWatcher.self) {
            watcher.session = session
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        guard !passesEverything else { return context.fireChannelRead(data) }
        switch frame.opcode {
        case .text where frame.fin && !frame.rsv1 && !frame.rsv2 && !frame.rsv3:
            let object = Self.object(in: frame.unmaskedData)
            let op = object?["op"] as? String
            if unanswered == 0, op == "play", let object, let session {
                answer(object, session: session, context: context)
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
        case .text:
            if unanswered == 0 { passesEverything = true } else { unanswered -= 1 }
        case .connectionClose:
            passesEverything = true
        default:
            break
        }
        context.write(data, promise: promise)
    }

    /// A text frame's JSON object, as the session reads it (`WebSocketSession.object(in:)`); nil
    /// for text that is not a JSON object.
    static func object(in text: ByteBuffer) -> [String: Any]? {
        try? text.withUnsafeReadableBytes(WebSocketSession.object)
    }

    private func answer(_ object: [String: Any], session: WebSocketSession, context: ChannelHandlerContext) {
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
