import Foundation

/// A JSON document as JSONDecoder reads it: booleans and numbers kept apart (a `true` is never a
/// number here, nor a `1` a boolean), which a schema's `boolean`, `integer` and `number` need.
indirect enum JSONDocument: Decodable, Equatable {
    case object([String: JSONDocument])
    case array([JSONDocument])
    case string(String)
    case number(Double)
    case boolean(Bool)
    case null

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .boolean(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONDocument].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONDocument].self))
        }
    }

    init(_ data: Data) throws {
        self = try JSONDecoder().decode(JSONDocument.self, from: data)
    }

    subscript(key: String) -> JSONDocument? {
        if case .object(let members) = self { members[key] } else { nil }
    }
}

/// Checks JSON against the OpenAPI 3.1 document's schemas (the part of JSON Schema its answers'
/// schemas use: `$ref` to a component, `type`, `properties`, `required`, `additionalProperties:
/// false`, `items`, `enum`). Returns where and how a value breaks
/// its schema, as JSON pointers, so that an answer the service sends and the document that
/// describes it cannot drift apart unnoticed.
struct JSONSchemaConformance {
    let document: JSONDocument

    /// The problems of `value` against `schema`, each as "pointer: why"; empty when it conforms.
    func problems(of value: JSONDocument, against schema: JSONDocument, at pointer: String = "") -> [String] {
        guard case .object(let rules) = schema else { return [] }
        if case .string(let reference)? = rules["$ref"] {
            guard let target = resolve(reference) else { return ["\(pointer): unresolved \(reference)"] }
            return problems(of: value, against: target, at: pointer)
        }
        if case .array(let allowed)? = rules["enum"], !allowed.contains(value) { return ["\(pointer): \(value) is not one of the enum"] }
        if let type = rules["type"], !Self.has(value, type: type) { return ["\(pointer): \(value) is not of type \(type)"] }
        switch value {
        case .object(let members): return problems(ofMembers: members, against: rules, at: pointer)
        case .array(let elements):
            guard let items = rules["items"] else { return [] }
            return elements.enumerated().flatMap { problems(of: $1, against: items, at: "\(pointer)/\($0)") }
        default: return []
        }
    }

    private func problems(ofMembers members: [String: JSONDocument], against rules: [String: JSONDocument], at pointer: String) -> [String] {
        var found: [String] = []
        let properties: [String: JSONDocument]
        if case .object(let declared)? = rules["properties"] { properties = declared } else { properties = [:] }
        if case .array(let required)? = rules["required"] {
            for case .string(let key) in required where members[key] == nil { found.append("\(pointer): misses required '\(key)'") }
        }
        for (key, member) in members.sorted(by: { $0.key < $1.key }) {
            if let schema = properties[key] {
                found += problems(of: member, against: schema, at: "\(pointer)/\(key)")
            } else if rules["additionalProperties"] == .boolean(false) {
                found.append("\(pointer): '\(key)' is not in the schema")
            }
        }
        return found
    }

    /// `#/components/schemas/Name` (or any pointer into the document).
    private func resolve(_ reference: String) -> JSONDocument? {
        guard reference.hasPrefix("#/") else { return nil }
        var node: JSONDocument? = document
        for key in reference.dropFirst(2).split(separator: "/") { node = node?[String(key)] }
        return node
    }

    private static func has(_ value: JSONDocument, type: JSONDocument) -> Bool {
        switch type {
        case .array(let types): return types.contains { has(value, type: $0) }
        case .string(let name):
            switch (name, value) {
            case ("object", .object), ("array", .array), ("string", .string), ("boolean", .boolean), ("null", .null), ("number", .number): return true
            case ("integer", .number(let number)): return number.rounded() == number
            default: return false
            }
        default: return true
        }
    }
}
