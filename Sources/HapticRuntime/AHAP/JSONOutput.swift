/// JSON to be written, with members in the order given, so AHAP output has a stable key order.
indirect enum JSONOutput: Sendable {
    case object([(key: String, value: JSONOutput)])
    case array([JSONOutput])
    case string(String)
    /// A number already printed as JSON text.
    case number(String)
    case bool(Bool)
    case null

    /// Pretty-printed with four-space indentation. An object or array holding only scalars goes
    /// on one line, so long parameter lists and curves stay one entry per line.
    func rendered(indentation: Int = 0) -> String {
        if isFlat { return compact }
        let inner = String(repeating: " ", count: (indentation + 1) * 4)
        let outer = String(repeating: " ", count: indentation * 4)
        switch self {
        case .object(let members):
            let lines = members.map { inner + JSONString.quoted($0.key) + ": " + $0.value.rendered(indentation: indentation + 1) }
            return "{\n" + lines.joined(separator: ",\n") + "\n" + outer + "}"
        case .array(let elements):
            let lines = elements.map { inner + $0.rendered(indentation: indentation + 1) }
            return "[\n" + lines.joined(separator: ",\n") + "\n" + outer + "]"
        default:
            return compact
        }
    }

    /// On one line, with a space after each separator.
    var compact: String {
        switch self {
        case .object(let members):
            if members.isEmpty { return "{}" }
            return "{ " + members.map { JSONString.quoted($0.key) + ": " + $0.value.compact }.joined(separator: ", ") + " }"
        case .array(let elements):
            if elements.isEmpty { return "[]" }
            return "[ " + elements.map(\.compact).joined(separator: ", ") + " ]"
        case .string(let text): return JSONString.quoted(text)
        case .number(let text): return text
        case .bool(let flag): return flag ? "true" : "false"
        case .null: return "null"
        }
    }

    private var isScalar: Bool {
        switch self {
        case .object, .array: false
        default: true
        }
    }

    private var isFlat: Bool {
        switch self {
        case .object(let members): members.allSatisfy(\.value.isScalar)
        case .array(let elements): elements.allSatisfy(\.isScalar)
        default: true
        }
    }
}

extension JSONOutput {
    /// The same value as read, numbers kept exactly as written.
    init(_ value: LocatedJSON) {
        switch value.kind {
        case .object(let members): self = .object(members.map { (key: $0.key, value: JSONOutput($0.value)) })
        case .array(let elements): self = .array(elements.map(JSONOutput.init))
        case .string(let text): self = .string(text)
        case .number(let number): self = .number(number.literal)
        case .bool(let flag): self = .bool(flag)
        case .null: self = .null
        }
    }
}

/// JSON string literals as `JSONEncoder` writes them, for JSON written without it (AHAP output with
/// its own key order, the service's trigger answers).
public enum JSONString {
    /// `text` quoted: quote, backslash and control characters escaped (`\n`, `\u001f`), everything
    /// else — slashes and non-ASCII included — written as is.
    public static func quoted(_ text: String) -> String {
        var result = ""
        append(text, to: &result)
        return result
    }

    /// `quoted(text)` appended to `result`. Text with nothing to escape, a name or an actuator's
    /// usually, is appended whole rather than a scalar at a time.
    public static func append(_ text: String, to result: inout String) {
        result.append("\"")
        if text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            appendEscaping(text, to: &result)
        } else {
            result.append(text)
        }
        result.append("\"")
    }

    private static func appendEscaping(_ text: String, to result: inout String) {
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{08}": result += "\\b"
            case "\u{0C}": result += "\\f"
            case "\u{00}"..."\u{1F}":
                let digits = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
            default: result.unicodeScalars.append(scalar)
            }
        }
    }
}
