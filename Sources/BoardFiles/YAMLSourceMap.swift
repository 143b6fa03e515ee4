import HapticRuntime
import Yams

/// A board file's YAML tree, as libyaml marked it while composing (the first of repeated keys).
struct YAMLSourceMap: LocatedNode {
    let node: Node

    var start: BoardTextPosition? { node.mark.map(BoardTextPosition.init) }

    func member(_ key: String) -> (key: BoardTextPosition?, value: YAMLSourceMap)? {
        guard let pair = node.mapping?.first(where: { $0.key.string == key }) else { return nil }
        return (pair.key.mark.map(BoardTextPosition.init), YAMLSourceMap(node: pair.value))
    }

    func element(_ index: Int) -> YAMLSourceMap? {
        guard let sequence = node.sequence, sequence.indices.contains(index) else { return nil }
        return YAMLSourceMap(node: sequence[index])
    }
}

extension BoardTextPosition {
    init(_ mark: Mark) {
        self.init(line: mark.line, column: mark.column)
    }
}
