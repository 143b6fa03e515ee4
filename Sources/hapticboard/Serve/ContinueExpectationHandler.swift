import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Answers a request that carries `Expect: 100-continue` with `100 Continue` as soon as its head
/// arrives (RFC 9110 §10.1.1), so the client sends its body at once. Hummingbird does not: curl
/// and other HTTP libraries that ask before sending a larger body then wait for their own timeout
/// (curl: a whole second) before every such request. The request goes on to the routes unchanged;
/// one that is refused (a body over the limit, a missing token) still gets its final answer.
final class ContinueExpectationHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data), Self.expectsContinue(head) {
            context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
        }
        context.fireChannelRead(data)
    }

    /// The expectation's value is case-insensitive; `100-continue` is the only one defined.
    static func expectsContinue(_ head: HTTPRequest) -> Bool {
        head.headerFields[values: .expect].contains { $0.lowercased() == "100-continue" }
    }
}
