/// Reads JSON text into `LocatedJSON`, recording the line and column of every value and key.
///
/// It accepts what AHAP files found in the wild contain beyond strict JSON — a trailing comma
/// before `}` or `]`, and a leading byte-order mark — and rejects everything else at the first
/// character that cannot be read. Nesting is limited to `maximumDepth` so hostile input cannot
/// exhaust the stack; every step consumes input, so reading always terminates.
struct LocatedJSONReader {
    /// Deeper than any real AHAP file (which nests five levels) by a wide margin.
    static let maximumDepth = 128

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var column = 1

    private init(text: String) {
        bytes = Array(text.utf8)
    }

    /// Reads `text` as one JSON value.
    static func read(_ text: String) throws(LocatedJSONSyntaxError) -> LocatedJSON {
        var reader = LocatedJSONReader(text: text)
        return try reader.readDocument()
    }

    private mutating func readDocument() throws(LocatedJSONSyntaxError) -> LocatedJSON {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            index = 3
        }
        skipWhitespace()
        let value = try readValue(depth: 0)
        skipWhitespace()
        if index < bytes.count {
            throw failure("unexpected \(found) after the end of the JSON value")
        }
        return value
    }

    // MARK: Values

    private mutating func readValue(depth: Int) throws(LocatedJSONSyntaxError) -> LocatedJSON {
        guard depth < Self.maximumDepth else {
            throw failure("arrays and objects nested deeper than \(Self.maximumDepth) levels")
        }
        let start = position
        guard let byte = peek else {
            throw failure("expected a value, found \(found)")
        }
        switch byte {
        case UInt8(ascii: "{"): return try readObject(depth: depth)
        case UInt8(ascii: "["): return try readArray(depth: depth)
        case UInt8(ascii: "\""): return LocatedJSON(kind: .string(try readString()), position: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return LocatedJSON(kind: .number(try readNumber()), position: start)
        case UInt8(ascii: "t"): return try readLiteral("true", as: .bool(true))
        case UInt8(ascii: "f"): return try readLiteral("false", as: .bool(false))
        case UInt8(ascii: "n"): return try readLiteral("null", as: .null)
        default: throw failure("expected a value, found \(found)")
        }
    }

    private mutating func readObject(depth: Int) throws(LocatedJSONSyntaxError) -> LocatedJSON {
        let start = position
        advance()
        var members: [LocatedJSON.Member] = []
        while true {
            skipWhitespace()
            // Checked before the key so that `{}` and a trailing comma before `}` are both accepted.
            if peek == UInt8(ascii: "}") {
                advance()
                return LocatedJSON(kind: .object(members), position: start)
            }
            guard peek == UInt8(ascii: "\"") else {
                throw failure("expected a string key or '}', found \(found)")
            }
            let keyPosition = position
            let key = try readString()
            skipWhitespace()
            guard peek == UInt8(ascii: ":") else {
                throw failure("expected ':' after object key \"\(key)\", found \(found)")
            }
            advance()
            skipWhitespace()
            let value = try readValue(depth: depth + 1)
            members.append(LocatedJSON.Member(key: key, keyPosition: keyPosition, value: value))
            skipWhitespace()
            switch peek {
            case UInt8(ascii: ","):
                advance()
            case UInt8(ascii: "}"):
                advance()
                return LocatedJSON(kind: .object(members), position: start)
            default:
                throw failure("expected ',' or '}' after object member, found \(found)")
            }
        }
    }

    private mutating func readArray(depth: Int) throws(LocatedJSONSyntaxError) -> LocatedJSON {
        let start = position
        advance()
        var elements: [LocatedJSON] = []
        while true {
            skipWhitespace()
            if peek == UInt8(ascii: "]") {
                advance()
                return LocatedJSON(kind: .array(elements), position: start)
            }
            elements.append(try readValue(depth: depth + 1))
            skipWhitespace()
            switch peek {
            case UInt8(ascii: ","):
                advance()
            case UInt8(ascii: "]"):
                advance()
                return LocatedJSON(kind: .array(elements), position: start)
            default:
                throw failure("expected ',' or ']' after array element, found \(found)")
            }
        }
    }

    private mutating func readLiteral(
        _ word: String, as kind: LocatedJSON.Kind
    ) throws(LocatedJSONSyntaxError) -> LocatedJSON {
        let start = position
        for expected in word.utf8 {
            guard peek == expected else {
                throw failure("expected a value (\(word)?), found \(found)")
            }
            advance()
        }
        return LocatedJSON(kind: kind, position: start)
    }

    // MARK: Numbers

    private mutating func readNumber() throws(LocatedJSONSyntaxError) -> LocatedJSON.Number {
        let start = position
        let first = index
        if peek == UInt8(ascii: "-") { advance() }
        if peek == UInt8(ascii: "0") {
            advance()
        } else {
            try readDigits(after: "the sign")
        }
        if peek == UInt8(ascii: ".") {
            advance()
            try readDigits(after: "'.'")
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            advance()
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { advance() }
            try readDigits(after: "the exponent")
        }
        let literal = String(decoding: bytes[first..<index], as: UTF8.self)
        guard let value = Double(literal), value.isFinite else {
            let shown = literal.count > 24 ? String(literal.prefix(24)) + "…" : literal
            throw LocatedJSONSyntaxError(position: start, message: "number \(shown) is too large")
        }
        return LocatedJSON.Number(value: value, literal: literal)
    }

    private mutating func readDigits(after what: String) throws(LocatedJSONSyntaxError) {
        guard let byte = peek, isDigit(byte) else {
            throw failure("expected a digit after \(what), found \(found)")
        }
        while let byte = peek, isDigit(byte) { advance() }
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    // MARK: Strings

    private mutating func readString() throws(LocatedJSONSyntaxError) -> String {
        let start = position
        advance()
        var scalars = String.UnicodeScalarView()
        var pending: [UInt8] = []
        while true {
            guard let byte = peek else {
                throw failure("unterminated string (it starts at \(start))")
            }
            switch byte {
            case UInt8(ascii: "\""):
                advance()
                scalars.append(contentsOf: String(decoding: pending, as: UTF8.self).unicodeScalars)
                return String(scalars)
            case UInt8(ascii: "\\"):
                scalars.append(contentsOf: String(decoding: pending, as: UTF8.self).unicodeScalars)
                pending.removeAll(keepingCapacity: true)
                scalars.append(try readEscape())
            case 0..<0x20:
                throw failure("control character in a string; write it as an escape such as \\n")
            default:
                pending.append(byte)
                advance()
            }
        }
    }

    private mutating func readEscape() throws(LocatedJSONSyntaxError) -> Unicode.Scalar {
        let start = position
        advance()
        guard let byte = peek else {
            throw failure("unterminated string")
        }
        let simple: Unicode.Scalar? = switch byte {
        case UInt8(ascii: "\""): "\""
        case UInt8(ascii: "\\"): "\\"
        case UInt8(ascii: "/"): "/"
        case UInt8(ascii: "b"): "\u{08}"
        case UInt8(ascii: "f"): "\u{0C}"
        case UInt8(ascii: "n"): "\n"
        case UInt8(ascii: "r"): "\r"
        case UInt8(ascii: "t"): "\t"
        default: nil
        }
        if let simple {
            advance()
            return simple
        }
        guard byte == UInt8(ascii: "u") else {
            throw LocatedJSONSyntaxError(position: start, message: "invalid escape in a string: a backslash followed by \(found)")
        }
        advance()
        let unit = try readHexQuad()
        if (0xD800..<0xDC00).contains(unit) {
            // A high surrogate is only meaningful followed by an escaped low surrogate.
            guard peek == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                throw LocatedJSONSyntaxError(position: start, message: "unpaired UTF-16 surrogate \\u\(hex(unit)) in a string")
            }
            advance()
            advance()
            let low = try readHexQuad()
            guard (0xDC00..<0xE000).contains(low),
                  let scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)) else {
                throw LocatedJSONSyntaxError(position: start, message: "unpaired UTF-16 surrogate \\u\(hex(unit)) in a string")
            }
            return scalar
        }
        guard let scalar = Unicode.Scalar(unit) else {
            throw LocatedJSONSyntaxError(position: start, message: "unpaired UTF-16 surrogate \\u\(hex(unit)) in a string")
        }
        return scalar
    }

    private mutating func readHexQuad() throws(LocatedJSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek, let digit = hexDigitValue(byte) else {
                throw failure("expected four hexadecimal digits after \\u, found \(found)")
            }
            value = value << 4 | digit
            advance()
        }
        return value
    }

    private func hexDigitValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    private func hex(_ unit: UInt32) -> String {
        let digits = String(unit, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    // MARK: Position tracking

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    private var position: LocatedJSON.Position { LocatedJSON.Position(line: line, column: column) }

    private mutating func advance() {
        let byte = bytes[index]
        index += 1
        if byte == UInt8(ascii: "\n") {
            line += 1
            column = 1
        } else if byte & 0xC0 != 0x80 {
            // UTF-8 continuation bytes belong to the character already counted.
            column += 1
        }
    }

    private mutating func skipWhitespace() {
        while let byte = peek,
              byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\t")
                || byte == UInt8(ascii: "\r") {
            advance()
        }
    }

    /// The character at the current position, quoted, for error messages.
    private var found: String {
        guard index < bytes.count else { return "the end of the text" }
        var end = index + 1
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        let character = String(decoding: bytes[index..<end], as: UTF8.self)
        if character == "\n" { return "a line break" }
        if character == "'" { return "\"'\"" }
        if let scalar = character.unicodeScalars.first, scalar.value < 0x20 || scalar.value == 0x7F {
            // Invisible in a terminal; name it instead.
            return "the control character U+" + hex(scalar.value)
        }
        return "'\(character)'"
    }

    private func failure(_ message: String) -> LocatedJSONSyntaxError {
        LocatedJSONSyntaxError(position: position, message: message)
    }
}
