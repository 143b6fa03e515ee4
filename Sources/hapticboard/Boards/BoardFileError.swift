import Yams

/// A problem in a board file, located by file, line, column and key path.
struct BoardFileError: Error, Sendable, Hashable, CustomStringConvertible {
    var file: String
    var line: Int?
    var column: Int?
    var keyPath: BoardKeyPath?
    var message: String

    init(file: String, mark: Mark?, keyPath: BoardKeyPath?, message: String) {
        self.file = file
        self.line = mark?.line
        self.column = mark?.column
        self.keyPath = keyPath
        self.message = message
    }

    var description: String {
        var location = file
        if let line { location += ":\(line)" }
        if let column { location += ":\(column)" }
        if let keyPath { return "\(location): \(keyPath): \(message)" }
        return "\(location): \(message)"
    }
}
