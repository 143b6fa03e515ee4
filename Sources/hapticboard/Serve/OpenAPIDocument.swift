import Foundation
import HapticRuntime
import Synchronization

/// The API's OpenAPI 3.1 document, `Serve/openapi.json` embedded at build time; a test checks it
/// against the router's routes so the two cannot drift.
enum OpenAPIDocument {
    static let text = String(decoding: PackageResources.openapi_json, as: UTF8.self)

    /// The document as `service` serves it: the checked-in one, with the names this service knows
    /// as enums — its board's actuators (`actuator=`), the content library's items it plays (within
    /// its limits) and its theme's events — so that a client generating requests from the document
    /// (Schemathesis, a code generator's validation) sends names this board has, and one that does
    /// not is a request outside the document. The checked-in text cannot know them: they are the
    /// board's and the folders'.
    static func served(by service: HapticService) -> String {
        served(actuators: service.board.actuators.map(\.name), library: service.playableLibraryNames, events: service.theme?.eventNames ?? [])
    }

    static func served(actuators: [String], library: [String], events: [String]) -> String {
        let names = [actuators, library, events]
        if let last = lastServed.withLock({ $0 }), last.names == names { return last.text }
        let text = making(actuators: actuators, library: library, events: events)
        lastServed.withLock { $0 = (names, text) }
        return text
    }

    /// The last document made and the names it was made with: the names change only when the
    /// service reloads its library or theme, so a client asking for the document again and again
    /// is answered without parsing and re-serialising it each time.
    private static let lastServed = Mutex<(names: [[String]], text: String)?>(nil)

    private static func making(actuators: [String], library: [String], events: [String]) -> String {
        guard var document = try? JSONSerialization.jsonObject(with: Data(text.utf8)) else { return text }
        document = replacing(in: document, at: ["components", "parameters", "actuator", "schema", "enum"], with: actuators) ?? document
        // An empty enum would say no name is valid; with nothing to name, an item is unknown (404).
        if !library.isEmpty { document = replacing(in: document, at: ["paths", "/play/library/{name}", "post", "parameters", 0, "schema", "enum"], with: library) ?? document }
        if !events.isEmpty { document = replacing(in: document, at: ["paths", "/events/{name}", "post", "parameters", 0, "schema", "enum"], with: events) ?? document }
        guard let data = try? JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]) else { return text }
        return String(decoding: data, as: UTF8.self)
    }

    /// `node` with the value at `path` (object keys and array indices) set to `value`; nil when
    /// the path leads nowhere in it. Only its last key may be new.
    private static func replacing(in node: Any, at path: ArraySlice<AnyHashable>, with value: Any) -> Any? {
        guard let step = path.first else { return value }
        if let key = step as? String, var object = node as? [String: Any] {
            guard let child = object[key] ?? (path.count == 1 ? NSNull() : nil),
                  let updated = replacing(in: child, at: path.dropFirst(), with: value) else { return nil }
            object[key] = updated
            return object
        }
        if let index = step as? Int, var array = node as? [Any], array.indices.contains(index) {
            guard let updated = replacing(in: array[index], at: path.dropFirst(), with: value) else { return nil }
            array[index] = updated
            return array
        }
        return nil
    }
}
