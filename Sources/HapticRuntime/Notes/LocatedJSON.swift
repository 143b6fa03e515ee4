/// A JSON value with the line and column it starts at, so errors can point into the file.
struct LocatedJSON: Sendable {
    indirect enum Value: Sendable {
        case string(String)
        case number(Double)
        case bool(Bool)
        case null
        case array([LocatedJSON])
        case object([Member])

        /// A short description for "expected X, got Y" messages.
        var summary: String {
            switch self {
            case .string(let text): "the string \"\(text)\""
            case .number(let number): "the number \(number)"
            case .bool(let flag): "\(flag)"
            case .null: "null"
            case .array: "an array"
            case .object: "an object"
            }
        }
    }

    struct Member: Sendable {
        var key: String
        var keyLocation: LocatedJSON
        var value: LocatedJSON
    }

    var value: Value
    var line: Int
    var column: Int
}

/// A small strict JSON reader that remembers where each value starts. Foundation's
/// JSONSerialization reports only byte offsets for syntax errors and nothing for values.
struct LocatedJSONReader {
    private let characters: [Character]
    private let file: String
    private var index = 0
    private var line = 1
    private var column = 1
    /// Bounds recursion so hostile input cannot exhaust the stack.
    private var depth = 0
    private static let maximumDepth = 64

    init(text: String, file: String) {
        self.characters = Array(text)
        self.file = file
    }

    mutating func readDocument() throws(NotesFileError) -> LocatedJSON {
        skipWhitespace()
        let value = try readValue()
        skipWhitespace()
        if index < characters.count { throw failure("unexpected '\(characters[index])' after the JSON value") }
        return value
    }

    private mutating func readValue() throws(NotesFileError) -> LocatedJSON {
        guard index < characters.count else { throw failure("unexpected end of file, expected a value") }
        let (startLine, startColumn) = (line, column)
        func located(_ value: LocatedJSON.Value) -> LocatedJSON { LocatedJSON(value: value, line: startLine, column: startColumn) }
        switch characters[index] {
        case "[": return located(try readArray())
        case "{": return located(try readObject())
        case "\"": return located(.string(try readString()))
        case "t": try expectWord("true"); return located(.bool(true))
        case "f": try expectWord("false"); return located(.bool(false))
        case "n": try expectWord("null"); return located(.null)
        case "-", "0"..."9": return located(.number(try readNumber()))
        case let other: throw failure("unexpected '\(other)', expected a value")
        }
    }

    private mutating func readArray() throws(NotesFileError) -> LocatedJSON.Value {
        try enter()
        advance()
        var items: [LocatedJSON] = []
        skipWhitespace()
        if peek == "]" { advance(); depth -= 1; return .array(items) }
        while true {
            skipWhitespace()
            items.append(try readValue())
            skipWhitespace()
            guard let next = peek else { throw failure("unexpected end of file, expected ',' or ']'") }
            advance()
            if next == "]" { break }
            guard next == "," else { throw failure("expected ',' or ']', got '\(next)'", back: 1) }
        }
        depth -= 1
        return .array(items)
    }

    private mutating func readObject() throws(NotesFileError) -> LocatedJSON.Value {
        try enter()
        advance()
        var members: [LocatedJSON.Member] = []
        skipWhitespace()
        if peek == "}" { advance(); depth -= 1; return .object(members) }
        while true {
            skipWhitespace()
            guard peek == "\"" else { throw failure("expected a key string") }
            let keyLocation = LocatedJSON(value: .null, line: line, column: column)
            let key = try readString()
            skipWhitespace()
            guard peek == ":" else { throw failure("expected ':' after the key") }
            advance()
            skipWhitespace()
            members.append(LocatedJSON.Member(key: key, keyLocation: keyLocation, value: try readValue()))
            skipWhitespace()
            guard let next = peek else { throw failure("unexpected end of file, expected ',' or '}'") }
            advance()
            if next == "}" { break }
            guard next == "," else { throw failure("expected ',' or '}', got '\(next)'", back: 1) }
        }
        depth -= 1
        return .object(members)
    }

    private mutating func readString() throws(NotesFileError) -> String {
        advance()
        var text = ""
        while let character = peek {
            // Checked before advancing so the error points at the end of the line, not the next one.
            if character.isNewline { throw failure("unterminated string") }
            advance()
            switch character {
            case "\"": return text
            case "\\":
                guard let escaped = peek else { break }
                advance()
                switch escaped {
                case "\"", "\\", "/": text.append(escaped)
                case "n": text.append("\n")
                case "t": text.append("\t")
                case "r": text.append("\r")
                case "b": text.append("\u{8}")
                case "f": text.append("\u{C}")
                case "u":
                    let hex = String(characters[index..<min(index + 4, characters.count)])
                    guard hex.count == 4, let code = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(code) else {
                        throw failure("invalid \\u escape")
                    }
                    for _ in 0..<4 { advance() }
                    text.unicodeScalars.append(scalar)
                default: throw failure("invalid escape '\\\(escaped)'", back: 1)
                }
            default: text.append(character)
            }
        }
        throw failure("unterminated string")
    }

    private mutating func readNumber() throws(NotesFileError) -> Double {
        let (startLine, startColumn) = (line, column)
        var text = ""
        while let character = peek, "+-0123456789.eE".contains(character) {
            text.append(character)
            advance()
        }
        guard let number = Double(text) else {
            throw NotesFileError(file: file, line: startLine, column: startColumn, kind: .syntax("invalid number '\(text)'"))
        }
        return number
    }

    private mutating func expectWord(_ word: String) throws(NotesFileError) {
        for expected in word {
            guard peek == expected else { throw failure("unexpected characters, expected '\(word)'") }
            advance()
        }
    }

    private mutating func enter() throws(NotesFileError) {
        depth += 1
        if depth > Self.maximumDepth { throw failure("nesting deeper than \(Self.maximumDepth) levels") }
    }

    private var peek: Character? { index < characters.count ? characters[index] : nil }

    private mutating func advance() {
        guard index < characters.count else { return }
        if characters[index].isNewline {
            line += 1
            column = 1
        } else {
            column += 1
        }
        index += 1
    }

    private mutating func skipWhitespace() {
        while let character = peek, character.isWhitespace { advance() }
    }

    /// An error at the current position, or `back` characters before it on the same line.
    private func failure(_ message: String, back: Int = 0) -> NotesFileError {
        NotesFileError(file: file, line: line, column: max(1, column - back), kind: .syntax(message))
    }
}
