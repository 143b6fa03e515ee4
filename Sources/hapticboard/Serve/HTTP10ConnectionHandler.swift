import NIOCore
import NIOHTTP1

/// Keeps HTTP/1.0's connection rules (RFC 9112 §9.3), which Hummingbird loses: it turns each
/// request head into an HTTPTypes request, which has no version, and answers as HTTP/1.1. A
/// 1.0 client that did not ask for keep-alive — ApacheBench without `-k`, scripts, old
/// libraries — reads until the server closes, and the service never did: every such request hung
/// until the client's own timeout. Now a 1.0 request without `Connection: keep-alive` is marked
/// `Connection: close` before Hummingbird sees it, so the connection closes after the answer, and
/// a 1.0 request with keep-alive gets `Connection: keep-alive` back, so its client keeps it open.
///
/// It sits between NIO's HTTP decoder and the WebSocket upgrade, where the version is still
/// known, and leaves at the first request that is not HTTP/1.0 or asks for an upgrade: a WebSocket
/// upgrade replaces the HTTP handlers, and nothing but HTTP parts may reach this one.
final class HTTP10ConnectionHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// How the answer to the current HTTP/1.0 request must say the connection goes on.
    private var answerConnection: String?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        guard head.version == .http1_0, !head.headers.contains(name: "upgrade") else {
            context.fireChannelRead(data)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        if head.isKeepAlive {
            answerConnection = "keep-alive"
        } else {
            answerConnection = "close"
            head.headers.replaceOrAdd(name: "connection", value: "close")
        }
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .head(var head) = unwrapOutboundIn(data), head.status.code >= 200, let connection = answerConnection else {
            context.write(data, promise: promise)
            return
        }
        head.headers.replaceOrAdd(name: "connection", value: connection)
        context.write(wrapOutboundOut(.head(head)), promise: promise)
    }
}
