/// A key given again in the same mapping. A decoder keeps one of the values without a word, so a
/// board that sets `vib-rated-mv` twice would drive at whichever a reader did not expect: readers
/// of settings (boards, themes, presets) refuse it, readers of content warn.
package struct RepeatedKey: Sendable, Hashable {
    package var keyPath: DocumentKeyPath
    /// Where the key was given first.
    package var first: BoardTextPosition?
    /// Where it is given again.
    package var again: BoardTextPosition?

    /// Why a file of settings is refused.
    package var refusal: String {
        let first = first.map { " (first at line \($0.line), column \($0.column))" } ?? ""
        return "given more than once\(first): give each key once, so that no reader has to guess which value counts"
    }
}

/// A parsed document's tree, each value knowing where it starts: a `BoardSourceMap` by walking it.
package protocol LocatedNode: BoardSourceMap {
    /// Where this value starts, when known.
    var start: BoardTextPosition? { get }
    /// This mapping's members in text order, repeated keys included (a key that is not a string is
    /// left out); nil when this is not a mapping.
    var members: [(key: String, position: BoardTextPosition?, value: Self)]? { get }
    /// This sequence's elements; nil when this is not a sequence.
    var elements: [Self]? { get }
    /// The last member named `key` (the one a decoder keeps), found without listing the others:
    /// a problem's place is looked up for each problem, and a mapping may have thousands.
    func lastMember(named key: String) -> (position: BoardTextPosition?, value: Self)?
}

extension LocatedNode {
    package func position(of keyPath: BoardKeyPath) -> BoardTextPosition? {
        var node = self
        var position = start
        for component in keyPath.components {
            switch component {
            case .key(let key):
                guard let member = node.lastMember(named: key) else { return position }
                position = member.position ?? position
                node = member.value
            case .index(let index):
                guard let elements = node.elements, elements.indices.contains(index) else { return position }
                position = elements[index].start ?? position
                node = elements[index]
            }
        }
        return position
    }

    package func repeatedKeys() -> [RepeatedKey] {
        var found: [RepeatedKey] = []
        collectRepeatedKeys(at: BoardKeyPath(), into: &found)
        return found
    }

    private func collectRepeatedKeys(at path: BoardKeyPath, into found: inout [RepeatedKey]) {
        if let members {
            var firstPositions: [String: BoardTextPosition?] = [:]
            for member in members {
                let memberPath = path.appending(member.key)
                if let first = firstPositions[member.key] {
                    found.append(RepeatedKey(keyPath: memberPath, first: first, again: member.position))
                } else {
                    firstPositions[member.key] = member.position
                }
                member.value.collectRepeatedKeys(at: memberPath, into: &found)
            }
        } else if let elements {
            for (index, element) in elements.enumerated() {
                element.collectRepeatedKeys(at: path.appending(index), into: &found)
            }
        }
    }
}

/// JSON as `LocatedJSONReader` located its values: boards, themes, presets and clips.
extension LocatedJSON: LocatedNode {
    var start: BoardTextPosition? { BoardTextPosition(position) }

    var members: [(key: String, position: BoardTextPosition?, value: LocatedJSON)]? {
        guard case .object(let members) = kind else { return nil }
        return members.map { ($0.key, BoardTextPosition($0.keyPosition), $0.value) }
    }

    var elements: [LocatedJSON]? {
        guard case .array(let elements) = kind else { return nil }
        return elements
    }

    func lastMember(named key: String) -> (position: BoardTextPosition?, value: LocatedJSON)? {
        guard case .object(let members) = kind, let member = members.last(where: { $0.key == key }) else { return nil }
        return (BoardTextPosition(member.keyPosition), member.value)
    }
}

extension BoardTextPosition {
    init(_ position: LocatedJSON.Position) {
        self.init(line: position.line, column: position.column)
    }
}

extension LocatedJSON.Position {
    init(_ position: BoardTextPosition) {
        self.init(line: position.line, column: position.column)
    }
}
