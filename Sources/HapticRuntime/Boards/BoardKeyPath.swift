/// A path in a board file, such as `actuators[1].vib-rated-mv`; the file's `BoardSourceMap` finds
/// its line and column.
public typealias BoardKeyPath = DocumentKeyPath

extension DocumentKeyPath {
    /// The path a decoding error points at.
    init(codingPath: [any CodingKey]) {
        components = codingPath.map { key in
            if let index = key.intValue { return .index(index) }
            return .key(key.stringValue)
        }
    }

    /// The value a decoding problem is about: for a missing key the key itself (the error's
    /// coding path ends at the mapping that lacks it).
    init(problemOf error: DecodingError) {
        switch error {
        case .keyNotFound(let key, let context):
            self.init(codingPath: context.codingPath + [key])
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            self.init(codingPath: context.codingPath)
        @unknown default:
            self.init()
        }
    }

    /// Whether this path is `other` or lies inside it.
    func isWithin(_ other: BoardKeyPath) -> Bool {
        components.starts(with: other.components)
    }
}

/// A line and column in the text a board was read from, both counted from 1.
package struct BoardTextPosition: Sendable, Hashable {
    package var line: Int
    package var column: Int

    package init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}

/// Finds where a value sits in the text a board description was decoded from, so that a problem
/// names its line and column: YAML's (`BoardFiles`) from libyaml's marks, JSON's
/// (`Board(json:source:)`) from `LocatedJSONReader`'s positions.
package protocol BoardSourceMap {
    /// Where the value at `keyPath` is — for a mapping's member, its key — or, when the path goes
    /// further than the text, the deepest value on it that exists. Of a repeated key, the last,
    /// which Yams keeps (JSONDecoder does not document its choice); a repeated key is a problem
    /// of its own (`repeatedKeys`), so such a board never opens.
    func position(of keyPath: BoardKeyPath) -> BoardTextPosition?
    /// Every key a mapping of the text gives more than once, at each repetition.
    func repeatedKeys() -> [RepeatedKey]
}
