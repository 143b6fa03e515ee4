import HapticRuntime
import Yams

/// Finds key paths in a board file's YAML tree, as libyaml marked it while composing.
struct YAMLSourceMap: BoardSourceMap {
    let root: Node

    /// The deepest node on the path that exists; for a mapping key, the key's own position, so
    /// that "unknown key" errors point at the key.
    func position(of keyPath: BoardKeyPath) -> BoardTextPosition? {
        var node = root
        var mark = root.mark
        for component in keyPath.components {
            switch component {
            case .key(let key):
                guard let mapping = node.mapping,
                      let pair = mapping.first(where: { $0.key.string == key }) else { return mark.map(BoardTextPosition.init) }
                mark = pair.key.mark ?? mark
                node = pair.value
            case .index(let index):
                guard let sequence = node.sequence, sequence.indices.contains(index) else { return mark.map(BoardTextPosition.init) }
                node = sequence[index]
                mark = node.mark ?? mark
            }
        }
        return mark.map(BoardTextPosition.init)
    }
}

extension BoardTextPosition {
    init(_ mark: Mark) {
        self.init(line: mark.line, column: mark.column)
    }
}
