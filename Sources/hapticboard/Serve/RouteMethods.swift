import Foundation
import HTTPTypes
import Hummingbird

/// The methods each route path answers, so a request with a path the API has but a method it
/// does not gets 405 Method Not Allowed with `Allow` (RFC 9110 §15.5.6), not 404: the path is
/// right, the method is wrong. Filled once the router's routes are added, read for each refusal.
final class RouteMethods: @unchecked Sendable {
    private let lock = NSLock()
    private var routes: [(method: HTTPRequest.Method, segments: [Substring])] = []

    /// Takes the routes of `router` (HEAD wherever GET: the router answers it too).
    func record(_ router: Router<some RequestContext>) {
        let table = router.routes.flatMap { route in
            let segments = "\(route.path)".split(separator: "/")
            return (route.method == .get ? [.get, .head] : [route.method]).map { (method: $0, segments: segments) }
        }
        lock.withLock { routes = table }
    }

    /// The methods a route on `path` answers, in a stable order; empty when no route has it.
    func methods(for path: String) -> [HTTPRequest.Method] {
        let requested = path.split(separator: "/")
        let matching = lock.withLock { routes.filter { Self.matches($0.segments, requested) }.map(\.method) }
        return Set(matching).sorted { $0.rawValue < $1.rawValue }
    }

    /// A route's parameter segment (`{name}` as Hummingbird writes `:name`) matches any one
    /// segment of the request.
    private static func matches(_ route: [Substring], _ requested: [Substring]) -> Bool {
        route.count == requested.count && zip(route, requested).allSatisfy { $0.hasPrefix("{") || $0 == $1 }
    }
}
