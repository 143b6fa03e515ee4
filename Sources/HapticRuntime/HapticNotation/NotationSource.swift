/// The text being read, kept whole so errors and warnings can quote their line.
struct NotationSource: Sendable {
    let file: String
    let lines: [String]

    init(text: String, file: String) {
        self.file = file
        // Any line break (LF, CRLF, CR) ends a line, so line numbers match what editors show.
        self.lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
    }

    func error(_ kind: HapticNotationError.Kind, line: Int, column: Int) -> HapticNotationError {
        let sourceLine = lines.indices.contains(line - 1) ? lines[line - 1] : ""
        return HapticNotationError(file: file, line: line, column: column, kind: kind, sourceLine: sourceLine)
    }

    func warning(_ message: String, line: Int, column: Int) -> ContentWarning {
        ContentWarning(location: "\(file):\(line):\(column)", message: message)
    }
}
