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

    func lastMember(named key: String) -> (position: BoardTextPosition?, value: YAMLSourceMap)? {
        // Node.Mapping is not bidirectional: the last match is the last one met going forward.
        var last: (key: Node, value: Node)?
        for pair in node.mapping ?? [:] where pair.key.string == key {
            last = pair
        }
        return last.map { ($0.key.mark.map(BoardTextPosition.init), YAMLSourceMap(node: $0.value)) }
    }
}

extension YAMLSourceMap {
    /// Whether the tree, each alias counted as the values it stands for, holds more than `limit`
    /// values (scalars, mappings, sequences and keys). The walk stops at the limit, so it costs
    /// at most `limit` steps however far the aliases multiply.
    func expands(beyond limit: Int) -> Bool {
        var budget = limit
        return !Self.count(node, within: &budget)
    }

    private static func count(_ node: Node, within budget: inout Int) -> Bool {
        budget -= 1
        guard budget >= 0 else { return false }
        switch node {
        case .scalar: return true
        case .mapping(let mapping): return mapping.allSatisfy { count($0.key, within: &budget) && count($0.value, within: &budget) }
        case .sequence(let sequence): return sequence.allSatisfy { count($0, within: &budget) }
        }
    }
}

extension BoardTextPosition {
    init(_ mark: Mark) {
        self.init(line: mark.line, column: mark.column)
    }
}
