/// Reads note lists from files, in either of two forms:
/// - JSON: an array whose items are note names (`"impact.heavy"`, `"waitUntilFinished"`) or
///   one-key objects `{"wait": 0.2}` and `{"sound": "beep.wav"}`;
/// - text: one note per line (`impact.heavy`, `wait 0.2`, `sound beep.wav`, `waitUntilFinished`),
///   `#` starts a comment, blank lines are ignored.
/// A file whose first non-blank character is `[` is JSON.
public enum NotesFile {
    /// Parses `text`; `file` names the source in errors.
    public static func parse(_ text: String, file: String) throws(NotesFileError) -> [Note] {
        let firstSignificant = text.first { !$0.isWhitespace }
        if firstSignificant == "[" {
            return try parseJSON(text, file: file)
        }
        return try parseText(text, file: file)
    }

    /// Parses the text form.
    public static func parseText(_ text: String, file: String) throws(NotesFileError) -> [Note] {
        var notes: [Note] = []
        for (lineIndex, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = rawLine.prefix { $0 != "#" }
            let words = Self.words(of: line)
            guard let (name, nameColumn) = words.first else { continue }
            let rest = Array(words.dropFirst())
            let lineNumber = lineIndex + 1
            func error(_ column: Int, _ kind: NotesFileError.Kind) -> NotesFileError {
                NotesFileError(file: file, line: lineNumber, column: column, kind: kind)
            }
            switch name {
            case "wait":
                guard let (value, column) = rest.first else {
                    throw error(nameColumn + name.count, .missingValue(note: name))
                }
                guard let seconds = waitSeconds(value) else { throw error(column, .invalidWait(value)) }
                if let (extra, extraColumn) = rest.dropFirst().first { throw error(extraColumn, .unexpectedValue(extra)) }
                notes.append(.wait(seconds))
            case "sound":
                guard let (_, column) = rest.first else {
                    throw error(nameColumn + name.count, .missingValue(note: name))
                }
                let soundName = line.dropFirst(column - 1).trimmingTrailingWhitespace()
                notes.append(.sound(.named(soundName)))
            default:
                let note = try Self.note(named: name, at: error(nameColumn, .unknownNote(name)))
                if let (extra, extraColumn) = rest.first { throw error(extraColumn, .unexpectedValue(extra)) }
                notes.append(note)
            }
        }
        return notes
    }

    /// Parses the JSON form.
    public static func parseJSON(_ text: String, file: String) throws(NotesFileError) -> [Note] {
        let root: LocatedJSON
        do {
            root = try LocatedJSONReader.read(text)
        } catch {
            throw NotesFileError(file: file, line: error.position.line, column: error.position.column, kind: .syntax(error.message))
        }
        func error(_ position: LocatedJSON.Position, _ kind: NotesFileError.Kind) -> NotesFileError {
            NotesFileError(file: file, line: position.line, column: position.column, kind: kind)
        }
        guard case .array(let items) = root.kind else {
            throw error(root.position, .syntax("a notes file holds a JSON array of notes"))
        }
        var notes: [Note] = []
        for item in items {
            switch item.kind {
            case .string(let name):
                notes.append(try note(named: name, at: error(item.position, .unknownNote(name))))
            case .object(let members):
                guard members.count == 1, let member = members.first else {
                    throw error(item.position, .syntax("a note object has exactly one key, \"wait\" or \"sound\""))
                }
                switch (member.key, member.value.kind) {
                case ("wait", .number(let seconds)):
                    guard seconds.value >= 0 else { throw error(member.value.position, .invalidWait(seconds.literal)) }
                    notes.append(.wait(seconds.value))
                case ("wait", _):
                    throw error(member.value.position, .invalidWait(member.value.typeName))
                case ("sound", .string(let name)) where !name.isEmpty:
                    notes.append(.sound(.named(name)))
                case ("sound", _):
                    throw error(member.value.position, .syntax("\"sound\" takes a non-empty file name string"))
                default:
                    throw error(member.keyPosition, .syntax("unknown key \"\(member.key)\"; expected \"wait\" or \"sound\""))
                }
            default:
                throw error(item.position, .syntax("a note is a name string or a {\"wait\": …} / {\"sound\": …} object, not \(item.typeName)"))
            }
        }
        return notes
    }

    private static func note(named name: String, at error: NotesFileError) throws(NotesFileError) -> Note {
        if name == "waitUntilFinished" { return .waitUntilFinished }
        guard let mapping = NoteMapping.mapping(named: name) else { throw error }
        return mapping.note
    }

    private static func waitSeconds(_ text: String) -> Double? {
        let digits = text.hasSuffix("s") ? String(text.dropLast()) : text
        guard let seconds = Double(digits), seconds.isFinite, seconds >= 0 else { return nil }
        return seconds
    }

    /// Whitespace-separated words with their 1-based columns.
    private static func words(of line: Substring) -> [(String, Int)] {
        var words: [(String, Int)] = []
        var current = ""
        var start = 0
        for (offset, character) in line.enumerated() {
            if character.isWhitespace {
                if !current.isEmpty { words.append((current, start + 1)) }
                current = ""
            } else {
                if current.isEmpty { start = offset }
                current.append(character)
            }
        }
        if !current.isEmpty { words.append((current, start + 1)) }
        return words
    }
}

extension Substring {
    fileprivate func trimmingTrailingWhitespace() -> String {
        var text = self
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        return String(text)
    }
}
