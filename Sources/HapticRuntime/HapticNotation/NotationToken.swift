/// One token of a notation line. Columns are 1-based character positions in the line.
struct NotationToken: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        /// A keyword, property, alias, curve or defined name.
        case word(String)
        /// A plain number: `0.5`, `-0.6`.
        case number(Double)
        /// A time in seconds: `0.3s`.
        case time(Double)
        /// A repeat count: `3x` (kept as written so the parser can reject `2.5x` with its column).
        case count(Double)
        /// A raw intensity: `i0.7`.
        case intensityValue(Double)
        /// A raw sharpness: `s0.3`.
        case sharpnessValue(Double)
        case colon, comma, arrow, dot, openParenthesis, closeParenthesis
    }

    var kind: Kind
    /// The characters as written, for messages.
    var text: String
    var column: Int

    /// The column just after the token, where an error about what should follow points.
    var endColumn: Int { column + text.count }
}

/// One non-blank line of notation: its leading whitespace and its tokens (comments dropped).
struct NotationLine: Sendable, Hashable {
    var number: Int
    var indentation: [Character]
    var tokens: [NotationToken]

    /// A line ending in `:` opens a block.
    var isHeader: Bool { tokens.last?.kind == .colon }
}
