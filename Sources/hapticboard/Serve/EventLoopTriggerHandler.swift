import Foundation
import HapticRuntime
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// Answers a kept-alive connection's triggers — `POST /feedback/…`, `/play/effect/{id}`,
/// `/play/library/{name}` and `/events/{name}` without `wait` or a body — on the event loop that
/// decoded them, as the routes would answer them, without handing them to Hummingbird's task,
/// router and middleware.
///
/// A trigger is what a kiosk or a game sends by the thousand and waits on; `hapticboard bench
/// --service` timed the stages of one on the Unix socket (docs/service.md): the client's write to
/// the event loop's read about 77 µs at p50, the read to a decoded head 63 µs, and from there to
/// the first register write some 175 µs through Hummingbird, of which the service's own play is
/// about 55. This handler sits right after NIO's HTTP decoder and takes a request only where the
/// answer is certain to be the routes' one, byte for byte but the `Date`
/// (`EventLoopTriggerTests` compare):
///
/// - the listener needs no token and serves no browser origins (the Unix socket);
/// - the connection's client is known (its first request went through the routes, which record
///   its peer's credentials), no request it passed on is still unanswered (answers stay in
///   order), and the request is HTTP/1.1 without `Expect`, `Upgrade`, `Transfer-Encoding`, a
///   `Connection` other than `keep-alive` or a non-zero `Content-Length`;
/// - its path is one of those routes exactly (`TriggerRoute`, the routes' own table), its
///   parameters plain (unreserved characters), and its query does not ask to `wait`.
///
/// Anything else — and a request that brings a body after all — goes on to Hummingbird as it came.
/// An answer it did not count a request for (Hummingbird's to a request NIO could not decode)
/// makes it pass everything on for the rest of the connection.
final class EventLoopTriggerHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let api: ServeAPI
    private let logger: Logger
    /// Requests passed on whose answers have not been written to the end yet.
    private var unanswered = 0
    /// A head kept back until its end shows it has no body, what it plays and for whom.
    private var held: (head: HTTPRequestHead, trigger: TriggerRequest, client: ServiceClient)?
    private var isFirstRequest = true
    /// Whether it only passes requests on, for the rest of the connection.
    private var passesEverything = false
    /// The `Date` of this connection's last answer and its second: answers within one second
    /// share it (formatting it was about 5,500 instructions an answer).
    private var date: (second: time_t, text: String) = (-1, "")

    init(api: ServeAPI, logger: Logger) {
        self.api = api
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            defer { isFirstRequest = false }
            if isFirstRequest, head.headers.contains(name: "upgrade") {
                // Only a first request may switch protocols; after a switch nothing HTTP comes.
                pass(context: context, data)
                context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
                return
            }
            if !passesEverything, unanswered == 0, let trigger = TriggerRequest(head), let client = api.clients.known(on: context.channel) {
                held = (head, trigger, client)
                return
            }
            pass(context: context, data)
        case .body:
            if let kept = held {
                // A body the head did not announce: the routes decide what it means.
                held = nil
                pass(context: context, wrapInboundOut(.head(kept.head)))
            }
            context.fireChannelRead(data)
        case .end:
            guard let kept = held else {
                context.fireChannelRead(data)
                return
            }
            held = nil
            answer(kept.trigger, for: kept.client, context: context)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            if unanswered == 0 { passesEverything = true } else { unanswered -= 1 }
        }
        context.write(data, promise: promise)
    }

    private func pass(context: ChannelHandlerContext, _ data: NIOAny) {
        unanswered += 1
        context.fireChannelRead(data)
    }

    private func answer(_ trigger: TriggerRequest, for client: ServiceClient, context: ChannelHandlerContext) {
        var status: HTTPResponse.Status
        var text: String
        do {
            (status, text) = try api.trigger(try trigger.playRequest(), from: client)
        } catch {
            let refusal = ServeError(known: error) ?? {
                logger.error("POST \(trigger.path): \(error)")
                return ServeError(ServiceError(.engineUnavailable, "\(error)"))
            }()
            status = refusal.status
            text = String(decoding: (try? ServeAPI.jsonData(refusal.body)) ?? Data(), as: UTF8.self)
        }
        api.triggersAnsweredOnEventLoop.withLockedValue { $0 += 1 }
        let body = context.channel.allocator.buffer(string: text)
        // The headers Hummingbird writes for the routes' JSON, in its order.
        let headers = HTTPHeaders([
            ("Content-Type", "application/json"), ("Content-Length", "\(body.readableBytes)"),
            ("Date", currentDate()), ("Server", ServeAPI.serverName),
        ])
        let head = HTTPResponseHead(version: .http1_1, status: .init(statusCode: status.code, reasonPhrase: status.reasonPhrase), headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    private func currentDate() -> String {
        let second = time(nil)
        if second != date.second { date = (second, HTTPDate.text(of: second)) }
        return date.text
    }
}

/// A request `EventLoopTriggerHandler` may answer: a `TriggerRoute`, read as the router reads
/// it.
struct TriggerRequest {
    let path: String
    private let route: TriggerRoute
    private let parameter: String?
    private let query: Parameters

    /// Nil for a request the routes must see (see `EventLoopTriggerHandler`).
    init?(_ head: HTTPRequestHead) {
        guard head.method == .POST, head.version == .http1_1 else { return nil }
        for name in ["expect", "upgrade", "transfer-encoding"] where head.headers.contains(name: name) { return nil }
        // HTTP/1.1 keeps the connection anyway; many libraries say so (Python's requests).
        let connection = head.headers["connection"].flatMap { $0.split(separator: ",") }
        guard connection.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).lowercased() == "keep-alive" }) else { return nil }
        guard head.headers["content-length"].allSatisfy({ $0 == "0" }) else { return nil }
        let uri = URI(head.uri)
        guard let segments = Self.plainSegments(of: uri.path), let (route, parameter) = TriggerRoute.matching(segments) else { return nil }
        query = uri.queryParameters
        guard query.get("wait") != "true" else { return nil }
        self.route = route
        self.parameter = parameter
        path = uri.path
    }

    /// What the route would ask the service to play, checked in the route's order: its content
    /// (a feedback's intensity and style first), then the play options.
    func playRequest() throws(ServeError) -> ServicePlayRequest {
        let content = try route.content(parameter: parameter, query: query)
        let options = try PlayOptions(query)
        return ServicePlayRequest(content: content, actuators: options.actuators, priority: options.priority, outlivesClient: options.outlive, profile: options.profile)
    }

    /// The segments of `path` after its leading `/`, or nil unless each is non-empty and made of
    /// RFC 3986's unreserved characters, which read the same decoded (a `%`, a trailing or double
    /// slash go to the routes). Read as UTF-8 bytes: as Characters, with Unicode's letter and
    /// number properties, reading a request took 41,800 instructions before its first write,
    /// 13,400 now (docs/service.md).
    static func plainSegments(of path: String) -> [Substring]? {
        let bytes = path.utf8
        guard bytes.first == UInt8(ascii: "/") else { return nil }
        var segments: [Substring] = []
        var start = bytes.index(after: bytes.startIndex)
        var index = start
        while true {
            if index == bytes.endIndex || bytes[index] == UInt8(ascii: "/") {
                guard index > start else { return nil }
                // Every byte before `index` is ASCII, so it is a character boundary.
                segments.append(path[start..<index])
                if index == bytes.endIndex { return segments }
                start = bytes.index(after: index)
            } else if !isUnreserved(bytes[index]) {
                return nil
            }
            index = bytes.index(after: index)
        }
    }

    /// RFC 3986's unreserved characters: ASCII letters and digits, `-`, `.`, `_` and `~`.
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): true
        default: false
        }
    }
}
