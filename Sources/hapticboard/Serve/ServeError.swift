import Foundation
import HapticRuntime
import Hummingbird
import HTTPTypes
import HummingbirdCore
import NIOCore

/// A refusal as the API serves it: the status for its reason code and a JSON body
/// `{"error": {"code", "message", "line", "column", "pointer"}}`.
struct ServeError: HTTPResponseError {
    let error: ServiceError

    init(_ error: ServiceError) {
        self.error = error
    }

    var status: HTTPResponse.Status { .init(code: error.code.httpStatus) }

    /// The JSON body.
    struct Body: Codable {
        struct Detail: Codable {
            var code: String
            var message: String
            var line: Int?
            var column: Int?
            var pointer: String?
        }

        var error: Detail
    }

    var body: Body {
        Body(error: .init(code: error.code.rawValue, message: error.message, line: error.line, column: error.column, pointer: error.pointer))
    }

    /// The refusal for an error of the service or of the API's own reading; nil for any other.
    init?(known error: any Error) {
        switch error {
        case let error as ServeError: self = error
        case let error as ServiceError: self.init(error)
        default: return nil
        }
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = try ServeAPI.json(body, status: status)
        if error.code == .unauthorized { response.headers[.wwwAuthenticate] = "Bearer" }
        return response
    }
}

/// Every error a route throws becomes a JSON refusal: the service's own, Hummingbird's (an
/// unknown route, a body over the limit, a bad path parameter), anything else a 500 that never
/// takes the service down.
struct ServeErrorMiddleware: RouterMiddleware {
    typealias Context = ServeRequestContext
    let service: HapticService
    /// The router's routes by path: a known path asked with another method is a 405.
    let routes: RouteMethods

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as ServeError {
            throw error
        } catch let error as ServeError.StatusOverride {
            throw error
        } catch let error as ServiceError {
            throw ServeError(error)
        } catch is NIOTooManyBytesError {
            service.countRefusal(.bodyTooLarge)
            throw ServeError(ServiceError(.bodyTooLarge, "the body is larger than \(ServeLimits.maximumBodySize) bytes"))
        } catch let error as HTTPError {
            let code: ServiceError.Code = error.status == .contentTooLarge ? .bodyTooLarge : .invalidRequest
            if code == .bodyTooLarge { service.countRefusal(code) }
            if error.status == .notFound {
                let allowed = routes.methods(for: request.uri.path)
                guard !allowed.isEmpty else {
                    throw ServeError(ServiceError(.invalidRequest, "no route \(request.method) \(request.uri.path); see GET /openapi.json"))
                        .withStatus(.notFound)
                }
                let methods = allowed.map(\.rawValue).joined(separator: ", ")
                throw ServeError(ServiceError(.invalidRequest, "\(request.uri.path) answers \(methods), not \(request.method); see GET /openapi.json"))
                    .withStatus(.methodNotAllowed, headers: [.allow: methods])
            }
            let message = error.body ?? (code == .bodyTooLarge ? "the body is larger than \(ServeLimits.maximumBodySize) bytes" : "\(error.status)")
            throw ServeError(ServiceError(code, message))
        } catch {
            context.logger.error("\(request.method) \(request.uri.path): \(error)")
            throw ServeError(ServiceError(.engineUnavailable, "\(error)"))
        }
    }
}

extension ServeError {
    /// The same body under another status (an unknown route is 404, not 400), with `headers`
    /// added (a 405's `Allow`).
    func withStatus(_ status: HTTPResponse.Status, headers: HTTPFields = [:]) -> StatusOverride {
        StatusOverride(error: self, status: status, headers: headers)
    }

    struct StatusOverride: HTTPResponseError {
        let error: ServeError
        let status: HTTPResponse.Status
        let headers: HTTPFields

        func response(from request: Request, context: some RequestContext) throws -> Response {
            var response = try error.response(from: request, context: context)
            response.status = status
            response.headers.append(contentsOf: headers)
            return response
        }
    }
}

/// The TCP listener serves only requests that carry the token: `Authorization: Bearer <token>`
/// (or, for a browser's WebSocket, `?token=` on `/ws`).
struct BearerTokenMiddleware: RouterMiddleware {
    typealias Context = ServeRequestContext
    let token: String
    let service: HapticService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard Self.carries(token, authorization: request.headers[.authorization], uri: request.uri) else {
            throw ServeError(Self.refusal(counting: service))
        }
        return try await next(request, context)
    }

    /// Whether a request carries `token`: as `Authorization: Bearer <token>` or, on `/ws`, as `?token=`.
    static func carries(_ token: String, authorization: String?, uri: URI) -> Bool {
        let given = authorization.flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
            ?? (uri.path == WebSocketHandshakeCheck.webSocketPath ? uri.queryParameters.get("token") : nil)
        return given.map { constantTimeEqual($0, token) } ?? false
    }

    /// The refusal of a request without the token, counted as one.
    static func refusal(counting service: HapticService) -> ServiceError {
        service.countRefusal(.unauthorized)
        return ServiceError(.unauthorized, "this listener needs 'Authorization: Bearer <token>' with the token from the service's token file")
    }

    /// Compares without an early exit, so timing does not reveal how much of a guess matched.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for index in 0..<min(x.count, y.count) { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}

/// Bodies decoded strictly: unknown fields, wrong types and out-of-range values are 400s that
/// point at the field.
protocol StrictlyDecoded {
    /// The fields the body may have.
    static var keys: Set<String> { get }
}

enum StrictJSON {
    static func decode<Body: Decodable & StrictlyDecoded>(_ type: Body.Type, from request: Request, context: ServeRequestContext) async throws -> Body {
        var request = request
        let buffer = try await request.collectBody(upTo: context.maxUploadSize)
        let data = Data(buffer.readableBytesView)
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw ServeError(ServiceError(.invalidRequest, "the body is not JSON: \(error.localizedDescription)"))
        }
        guard let fields = object as? [String: Any] else { throw ServeError(ServiceError(.invalidRequest, "expected a JSON object", pointer: "")) }
        if let unknown = fields.keys.sorted().first(where: { !Body.keys.contains($0) }) {
            throw ServeError(ServiceError(.invalidRequest, "unknown field '\(unknown)'; expected \(Body.keys.sorted().joined(separator: ", "))", pointer: "/\(unknown)"))
        }
        do {
            return try JSONDecoder().decode(Body.self, from: data)
        } catch let error as DecodingError {
            throw ServeError(ServiceError(.invalidRequest, Self.message(error), pointer: Self.pointer(error)))
        }
    }

    private static func pointer(_ error: DecodingError) -> String {
        let path: [any CodingKey]
        switch error {
        case .keyNotFound(let key, let context): path = context.codingPath + [key]
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context): path = context.codingPath
        @unknown default: path = []
        }
        return path.map { "/" + ($0.intValue.map(String.init) ?? $0.stringValue) }.joined()
    }

    private static func message(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, _): "missing field '\(key.stringValue)'"
        case .typeMismatch(let type, _): "expected \(type == Int.self ? "an integer" : type == String.self ? "a string" : "\(type)")"
        case .valueNotFound: "a value is missing"
        case .dataCorrupted(let context): context.debugDescription
        @unknown default: "\(error)"
        }
    }
}

/// CORS for the TCP listener's browser clients (a kiosk page): a request whose `Origin` is one
/// of `origins` (`*`: any) gets Hummingbird's CORS answer — its preflight answered, its response
/// marked readable by that page. Any other request passes through untouched, so a page from
/// anywhere else gets no CORS headers and its browser keeps the answer from it. The token is still
/// required of every request but the preflight.
struct AllowedOriginsMiddleware: RouterMiddleware {
    typealias Context = ServeRequestContext
    /// With `*`: one answer for any origin.
    private let anyOrigin: CORSMiddleware<Context>?
    /// Otherwise one per allowed origin, naming it.
    private let byOrigin: [String: CORSMiddleware<Context>]

    init(origins: Set<String>) {
        anyOrigin = origins.contains("*") ? Self.cors(.all) : nil
        byOrigin = Dictionary(uniqueKeysWithValues: origins.map { ($0, Self.cors(.custom($0))) })
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let origin = request.headers[.origin], let cors = anyOrigin ?? byOrigin[origin] else {
            return try await next(request, context)
        }
        return try await cors.handle(request, context: context, next: next)
    }

    private static func cors(_ allowOrigin: CORSMiddleware<Context>.AllowOriginExtended) -> CORSMiddleware<Context> {
        CORSMiddleware(
            allowOrigin: allowOrigin,
            allowHeaders: [.accept, .authorization, .contentType, .origin],
            allowMethods: [.get, .head, .post, .put, .delete, .options],
            maxAge: .seconds(600)
        )
    }
}
