import HapticRuntime
import Hummingbird

/// The routes that play what their path names, without a body: the feedback vocabulary, a ROM
/// effect, a library entry and a named event. `ServeAPI.router` serves each of them, and
/// `TriggerRequest` reads a request against the same table, so the event loop's way and the
/// routes' cannot come to know different paths.
enum TriggerRoute: CaseIterable, Sendable {
    case selection, impact, impactStyle, notification, effect, library, event

    /// The router's path: at most one `:parameter`, always the last segment.
    var path: String {
        switch self {
        case .selection: "/feedback/selection"
        case .impact: "/feedback/impact"
        // A route per feedback, as the document has them: each style is an enum of its own kind.
        case .impactStyle: "/feedback/impact/:style"
        case .notification: "/feedback/notification/:type"
        case .effect: "/play/effect/:id"
        case .library: "/play/library/:name"
        case .event: "/events/:name"
        }
    }

    /// The name of the path's parameter, nil on a route without one.
    var parameterName: String? {
        guard let last = path.split(separator: "/").last, last.hasPrefix(":") else { return nil }
        return String(last.dropFirst())
    }

    /// The content the route plays, given its parameter's value (nil on a route without one) and
    /// the request's query; throws the route's refusal.
    func content(parameter: String?, query: Parameters) throws(ServeError) -> ServiceContent {
        switch self {
        case .selection: return try ServeAPI.feedback(kind: "selection", style: nil, query: query)
        case .impact, .impactStyle: return try ServeAPI.feedback(kind: "impact", style: parameter, query: query)
        case .notification: return try ServeAPI.feedback(kind: "notification", style: parameter, query: query)
        case .effect:
            guard let id = parameter.flatMap({ Int($0) }) else {
                throw ServeError(ServiceError(.invalidRequest, "effect id '\(parameter ?? "")' is not an integer", pointer: "/id"))
            }
            return .effect(id)
        case .library: return .library(parameter ?? "")
        case .event: return .event(parameter ?? "")
        }
    }

    /// Each route with its path's segments, split once: a trigger is matched against them.
    private static let templates = allCases.map { ($0, $0.path.split(separator: "/")) }

    /// The route whose path `segments` (the path split at `/`, without the empty one before the
    /// first) match as the router matches them, and its parameter's value.
    static func matching(_ segments: [Substring]) -> (route: TriggerRoute, parameter: String?)? {
        for (route, template) in templates {
            guard template.count == segments.count else { continue }
            var parameter: String?
            let matches = zip(template, segments).allSatisfy { pattern, segment in
                guard pattern.hasPrefix(":") else { return pattern == segment }
                parameter = String(segment)
                return true
            }
            if matches { return (route, parameter) }
        }
        return nil
    }
}
