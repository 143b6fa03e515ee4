/// A mistake in a notes file, with the place it was found.
public struct NotesFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public enum Kind: Sendable, Hashable {
        /// A note name that is not in the table.
        case unknownNote(String)
        /// A wait that is not a finite, non-negative number of seconds.
        case invalidWait(String)
        /// A note that needs a value (`wait`, `sound`) but has none.
        case missingValue(note: String)
        /// Something after a note that takes no value.
        case unexpectedValue(String)
        /// Broken JSON, or JSON of the wrong shape.
        case syntax(String)
    }

    /// The file as the caller named it.
    public var file: String
    /// 1-based line.
    public var line: Int
    /// 1-based column (in characters).
    public var column: Int
    /// What is wrong.
    public var kind: Kind

    /// Creates an error at `file:line:column`.
    public init(file: String, line: Int, column: Int, kind: Kind) {
        self.file = file
        self.line = line
        self.column = column
        self.kind = kind
    }

    /// Every spelling a notes file accepts, for error messages.
    public static var acceptedNotes: String {
        (NoteMapping.table.map(\.name) + ["wait SECONDS", "waitUntilFinished", "sound NAME"]).joined(separator: ", ")
    }

    /// `file:line:column: error: message`, as compilers print it.
    public var description: String {
        let message: String
        switch kind {
        case .unknownNote(let name): message = "unknown note '\(name)'; expected one of: \(Self.acceptedNotes)"
        case .invalidWait(let text): message = "wait needs a non-negative number of seconds, got '\(text)'"
        case .missingValue(let note): message = "'\(note)' needs a value"
        case .unexpectedValue(let text): message = "unexpected '\(text)' after the note"
        case .syntax(let detail): message = detail
        }
        return "\(file):\(line):\(column): error: \(message)"
    }
}
