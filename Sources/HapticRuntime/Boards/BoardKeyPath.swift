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
    /// further than the text, the deepest value on it that exists.
    func position(of keyPath: BoardKeyPath) -> BoardTextPosition?
}

/// A parsed document's tree, each value knowing where it starts: a `BoardSourceMap` by walking it.
package protocol LocatedNode: BoardSourceMap {
    /// Where this value starts, when known.
    var start: BoardTextPosition? { get }
    /// This mapping's member `key`: where its key starts, and its value; nil when there is none.
    func member(_ key: String) -> (key: BoardTextPosition?, value: Self)?
    /// This sequence's element `index`; nil when there is none.
    func element(_ index: Int) -> Self?
}

extension LocatedNode {
    package func position(of keyPath: BoardKeyPath) -> BoardTextPosition? {
        var node = self
        var position = start
        for component in keyPath.components {
            switch component {
            case .key(let key):
                guard let member = node.member(key) else { return position }
                position = member.key ?? position
                node = member.value
            case .index(let index):
                guard let element = node.element(index) else { return position }
                position = element.start ?? position
                node = element
            }
        }
        return position
    }
}
