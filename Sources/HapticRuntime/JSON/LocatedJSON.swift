/// A JSON value that remembers where it starts in its source text, so readers built on it can
/// report `line:column` for every value and key. Produced by `LocatedJSONReader`.
struct LocatedJSON: Sendable, Hashable {
    /// A 1-based line and column; columns count Unicode scalars, as editors show them.
    struct Position: Sendable, Hashable, CustomStringConvertible {
        var line: Int
        var column: Int

        var description: String { "\(line):\(column)" }
    }

    /// One `"key": value` pair of an object, kept in source order (duplicates included, so the
    /// reader above can decide what a repeated key means).
    struct Member: Sendable, Hashable {
        var key: String
        var keyPosition: Position
        var value: LocatedJSON
    }

    /// A number with the text it was written as, so it can be echoed exactly (e.g. a numeric
    /// `Metadata` value kept as text).
    struct Number: Sendable, Hashable {
        var value: Double
        var literal: String
    }

    enum Kind: Sendable, Hashable {
        case object([Member])
        case array([LocatedJSON])
        case string(String)
        case number(Number)
        case bool(Bool)
        case null
    }

    var kind: Kind
    var position: Position

    /// The JSON name of this value's type, for "expected X, found Y" messages.
    var typeName: String {
        switch kind {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }
}
