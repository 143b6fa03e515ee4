import Yams

/// A path in a board file, such as `actuators[1].vib-rated-mv`, that can find the value's line
/// and column in the parsed YAML.
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

    /// Where this path is in `root`: the deepest node on the path that exists. For a mapping
    /// key, the key's own position, so "unknown key" errors point at the key.
    func mark(in root: Node) -> Mark? {
        var node = root
        var mark = root.mark
        for component in components {
            switch component {
            case .key(let key):
                guard let mapping = node.mapping,
                      let pair = mapping.first(where: { $0.key.string == key }) else { return mark }
                mark = pair.key.mark ?? mark
                node = pair.value
            case .index(let index):
                guard let sequence = node.sequence, sequence.indices.contains(index) else { return mark }
                node = sequence[index]
                mark = node.mark ?? mark
            }
        }
        return mark
    }
}
