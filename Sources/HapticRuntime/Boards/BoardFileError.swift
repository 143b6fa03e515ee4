/// A problem in a board file, located by file, line, column and key path.
public struct BoardFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The board file's path (or the name given to YAML held in memory).
    public var file: String
    /// The line and column of the key or value, when the problem has a place in the file.
    public var line: Int?
    public var column: Int?
    /// The key the problem is about (`actuators[0].vib-rated-mv`).
    public var keyPath: BoardKeyPath?
    /// What is wrong and what was expected.
    public var message: String

    package init(file: String, position: BoardTextPosition?, keyPath: BoardKeyPath?, message: String) {
        self.file = file
        self.line = position?.line
        self.column = position?.column
        self.keyPath = keyPath
        self.message = message
    }

    /// `file:line:column: key: message`.
    public var description: String {
        var location = file
        if let line { location += ":\(line)" }
        if let column { location += ":\(column)" }
        if let keyPath { return "\(location): \(keyPath): \(message)" }
        return "\(location): \(message)"
    }
}
