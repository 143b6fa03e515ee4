/// Reads the tokens of one line left to right, producing located errors for what is missing or extra.
struct NotationLineReader {
    let line: NotationLine
    let source: NotationSource
    private var index = 0

    init(line: NotationLine, source: NotationSource) {
        self.line = line
        self.source = source
    }

    var peek: NotationToken? { index < line.tokens.count ? line.tokens[index] : nil }

    var isAtEnd: Bool { index >= line.tokens.count }

    @discardableResult
    mutating func next() -> NotationToken? {
        defer { index += 1 }
        return peek
    }

    /// Where an error about the current token points: the token, or just past the last one.
    var column: Int { peek?.column ?? (line.tokens.last?.endColumn ?? line.indentation.count + 1) }

    func error(_ kind: HapticNotationError.Kind, at column: Int? = nil) -> HapticNotationError {
        source.error(kind, line: line.number, column: column ?? self.column)
    }

    /// An error saying `expected` should stand where the reader is.
    func unexpected(_ expected: String, suggestion: String? = nil) -> HapticNotationError {
        error(.unexpectedToken(found: peek?.text, expected: expected, suggestion: suggestion))
    }

    mutating func expect(_ kind: NotationToken.Kind, _ description: String) throws(HapticNotationError) {
        guard peek?.kind == kind else { throw unexpected(description) }
        next()
    }

    func expectEnd() throws(HapticNotationError) {
        guard isAtEnd else { throw unexpected("the end of the line") }
    }

    /// A time such as `0.3s`; a bare number gets a hint to add the unit.
    mutating func time(_ what: String) throws(HapticNotationError) -> Double {
        switch peek?.kind {
        case .time(let value)?:
            next()
            return value
        case .number?:
            throw error(.timeWithoutUnit(peek?.text ?? ""))
        default:
            throw unexpected(what)
        }
    }

    /// A plain number such as `0.25`.
    mutating func number(_ what: String) throws(HapticNotationError) -> (value: Double, column: Int) {
        guard case .number(let value)? = peek?.kind else { throw unexpected(what) }
        let column = self.column
        next()
        return (value, column)
    }
}
