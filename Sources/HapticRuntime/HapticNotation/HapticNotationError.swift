/// A Haptic Notation Language text that cannot be turned into a pattern.
///
/// `description` is what a compiler prints: `file:line:column: message`, the offending line, a caret
/// under the column and, when there is one, a hint that says how to fix it.
public struct HapticNotationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The name the caller gave the text (usually its path).
    public var file: String
    /// 1-based line of the problem.
    public var line: Int
    /// 1-based column (in characters) of the problem.
    public var column: Int
    /// What went wrong.
    public var kind: Kind
    /// The offending line as written, without its line break.
    public var sourceLine: String

    /// Creates an error at `line`:`column` of `file`.
    public init(file: String, line: Int, column: Int, kind: Kind, sourceLine: String) {
        self.file = file
        self.line = line
        self.column = column
        self.kind = kind
        self.sourceLine = sourceLine
    }

    /// One line saying what is wrong.
    public var message: String { kind.message }

    /// How to fix it, when the reader can tell.
    public var hint: String? { kind.hint }

    /// `file:line:column: message`, the offending line, a caret under the column, and the hint.
    public var description: String {
        var text = "\(file):\(line):\(column): \(message)\n\(sourceLine)\n\(caretLine)"
        if let hint { text += "\nhint: \(hint)" }
        return text
    }

    /// The caret, preceded by the line's own tabs so it lines up in a terminal whatever the tab width.
    public var caretLine: String {
        let before = sourceLine.prefix(max(0, column - 1)).map { $0 == "\t" ? "\t" : " " }
        let padding = String(repeating: " ", count: max(0, column - 1 - before.count))
        return before.joined() + padding + "^"
    }
}
