/// A line and the lines indented below it.
struct NotationBlock: Sendable, Hashable {
    var line: NotationLine
    var children: [NotationBlock]

    /// Builds the block tree from indentation.
    ///
    /// The first indented line sets the unit (its run of spaces or tabs); every other line must be
    /// indented by whole units of the same character, at most one level deeper than the line before,
    /// and only below a header line ending in `:`.
    static func tree(
        of lines: [NotationLine], source: NotationSource, maximumDepth: Int
    ) throws(HapticNotationError) -> [NotationBlock] {
        var unit: (character: Character, width: Int, line: Int)?
        var levels: [Int] = []
        for (position, line) in lines.enumerated() {
            let column = line.indentation.count + 1
            func fail(_ kind: HapticNotationError.Kind) -> HapticNotationError {
                source.error(kind, line: line.number, column: column)
            }
            var level = 0
            if let first = line.indentation.first {
                let established = unit ?? (first, line.indentation.count, line.number)
                guard line.indentation.allSatisfy({ $0 == established.character }) else {
                    throw fail(.mixedIndentation(unitLine: unit?.line))
                }
                guard line.indentation.count % established.width == 0 else {
                    throw fail(.indentationNotMultiple(
                        width: line.indentation.count, unit: established.width, unitLine: established.line))
                }
                unit = established
                level = line.indentation.count / established.width
            }
            let previousLevel = levels.last ?? 0
            if level > previousLevel {
                guard position > 0 else { throw fail(.unexpectedIndentation) }
                let previous = lines[position - 1]
                guard previous.isHeader else {
                    // A block keyword without its colon reads better as "expected ':'" on that line.
                    if case .word(let word)? = previous.tokens.first?.kind, NotationVocabulary.keywords.contains(word),
                       let last = previous.tokens.last {
                        throw source.error(
                            .unexpectedToken(found: nil, expected: "':' to open the block", suggestion: nil),
                            line: previous.number, column: last.endColumn)
                    }
                    throw fail(.unexpectedIndentation)
                }
                guard level == previousLevel + 1 else {
                    throw fail(.indentationTooDeep(unitLine: unit?.line ?? line.number))
                }
                guard level <= maximumDepth else { throw fail(.nestingTooDeep(limit: maximumDepth)) }
            }
            levels.append(level)
        }
        var index = 0
        return blocks(of: lines, levels: levels, from: &index, level: 0)
    }

    private static func blocks(
        of lines: [NotationLine], levels: [Int], from index: inout Int, level: Int
    ) -> [NotationBlock] {
        var result: [NotationBlock] = []
        while index < lines.count, levels[index] == level {
            let line = lines[index]
            index += 1
            var children: [NotationBlock] = []
            if index < lines.count, levels[index] > level {
                children = blocks(of: lines, levels: levels, from: &index, level: level + 1)
            }
            result.append(NotationBlock(line: line, children: children))
        }
        return result
    }
}
