import HapticRuntime
import Yams

/// A board file's YAML tree, as libyaml marked it while composing.
struct YAMLSourceMap: LocatedNode {
    let node: Node

    var start: BoardTextPosition? { node.mark.map(BoardTextPosition.init) }

    var members: [(key: String, position: BoardTextPosition?, value: YAMLSourceMap)]? {
        node.mapping?.compactMap { pair in
            pair.key.string.map { ($0, pair.key.mark.map(BoardTextPosition.init), YAMLSourceMap(node: pair.value)) }
        }
    }

    var elements: [YAMLSourceMap]? {
        node.sequence.map { $0.map(YAMLSourceMap.init) }
    }
}

extension BoardTextPosition {
    init(_ mark: Mark) {
        self.init(line: mark.line, column: mark.column)
    }
}
