/// Turns the block tree into statements, resolving `define`d names in text order.
struct NotationParser {
    /// Where a statement stands; it decides what `define` and rests mean there.
    enum Context { case topLevel, definition, slots }

    let source: NotationSource
    let limits: HapticNotation.Limits
    private(set) var warnings: [ContentWarning] = []
    private var definitions: [String: (line: Int, body: [NotationStatement])] = [:]
    /// Every top-level `define`, known up front so "used before its definition" can say where it is.
    private var definitionLines: [String: Int] = [:]
    private var definitionBeingParsed: String?

    init(source: NotationSource, limits: HapticNotation.Limits) {
        self.source = source
        self.limits = limits
    }

    mutating func parse(_ blocks: [NotationBlock]) throws(HapticNotationError) -> [NotationStatement] {
        for block in blocks {
            let tokens = block.line.tokens
            if tokens.count > 1, tokens[0].kind == .word("define"), case .word(let name) = tokens[1].kind,
               definitionLines[name] == nil {
                definitionLines[name] = block.line.number
            }
        }
        return try statements(blocks, in: .topLevel)
    }

    private mutating func statements(
        _ blocks: [NotationBlock], in context: Context
    ) throws(HapticNotationError) -> [NotationStatement] {
        var result: [NotationStatement] = []
        for block in blocks {
            if let statement = try statement(block, in: context) { result.append(statement) }
        }
        return result
    }

    /// One statement; nil for a `define`, which only records its body.
    private mutating func statement(
        _ block: NotationBlock, in context: Context
    ) throws(HapticNotationError) -> NotationStatement? {
        var reader = NotationLineReader(line: block.line, source: source)
        guard let first = reader.peek else { return nil }
        let position = NotationPosition(line: block.line.number, column: first.column)
        switch first.kind {
        case .dot:
            return try rest(&reader, block: block, in: context, at: position)
        case .word("define"):
            try define(&reader, block: block, in: context)
            return nil
        case .word("continuous"):
            return .continuous(try continuous(&reader, block: block), at: position)
        case .word("sequence"):
            reader.next()
            let interval = try reader.time("an interval such as '0.15s'")
            try header(&reader, block: block)
            return .sequence(interval: interval, items: try statements(block.children, in: .slots), at: position)
        case .word("loop"):
            return try loop(&reader, block: block, at: position)
        case .word("ramp"):
            return .ramp(try ramp(&reader, block: block), at: position)
        case .word(let word) where NotationVocabulary.properties.contains(word):
            throw reader.error(.propertyOutsideBlock(word))
        case .word(let word) where NotationVocabulary.sharpnessAliases[word] != nil:
            throw reader.error(.sharpnessBeforeIntensity(word))
        case .sharpnessValue:
            throw reader.error(.sharpnessBeforeIntensity(first.text))
        case .word(let word) where NotationVocabulary.intensityAliases[word] == nil:
            return try reference(word, &reader, at: position)
        case .word, .intensityValue, .number:
            let intensity = try self.intensity(&reader)
            guard !reader.isAtEnd else { throw reader.error(.missingSharpness) }
            let sharpness = try self.sharpness(&reader)
            try reader.expectEnd()
            return .transient(intensity: intensity, sharpness: sharpness, at: position)
        case .time:
            // A time alone on a line is most likely a rest without its dot.
            throw reader.unexpected("a haptic, a rest, a block or a defined name", suggestion: ". \(first.text)")
        default:
            throw reader.unexpected("a haptic such as 'loud sharp', a rest '.', a block or a defined name")
        }
    }

    // MARK: Statements

    private mutating func rest(
        _ reader: inout NotationLineReader, block: NotationBlock, in context: Context, at position: NotationPosition
    ) throws(HapticNotationError) -> NotationStatement {
        reader.next()
        var seconds = HapticNotation.defaultRest
        if !reader.isAtEnd {
            let column = reader.column
            seconds = try reader.time("a time such as '0.3s' after the rest")
            if context == .slots {
                warnings.append(source.warning(
                    "a rest inside 'sequence' or 'loop' keeps one slot; its time is ignored",
                    line: block.line.number, column: column))
            }
        }
        try reader.expectEnd()
        return .rest(seconds: seconds, at: position)
    }

    private mutating func define(
        _ reader: inout NotationLineReader, block: NotationBlock, in context: Context
    ) throws(HapticNotationError) {
        guard context == .topLevel else { throw reader.error(.defineNotAtTopLevel) }
        reader.next()
        guard case .word(let name)? = reader.peek?.kind else { throw reader.unexpected("a name to define") }
        guard !NotationVocabulary.reserved.contains(name) else { throw reader.error(.reservedName(name)) }
        reader.next()
        try header(&reader, block: block)
        definitionBeingParsed = name
        defer { definitionBeingParsed = nil }
        let body = try statements(block.children, in: .definition)
        if let earlier = definitions[name] {
            warnings.append(source.warning(
                "'\(name)' redefines the definition on line \(earlier.line); later uses play the new one",
                line: block.line.number, column: reader.line.tokens[1].column))
        }
        definitions[name] = (block.line.number, body)
    }

    private mutating func reference(
        _ name: String, _ reader: inout NotationLineReader, at position: NotationPosition
    ) throws(HapticNotationError) -> NotationStatement {
        if name == definitionBeingParsed, definitions[name] == nil {
            throw reader.error(.recursiveDefinition(name))
        }
        guard let definition = definitions[name] else {
            let known = NotationVocabulary.keywords.union(NotationVocabulary.intensityAliases.keys)
                .union(definitions.keys)
            let suggestion = SpellingSuggestion.closest(to: name, among: known)
            throw reader.error(.undefinedName(name, definedOnLine: definitionLines[name], suggestion: suggestion))
        }
        reader.next()
        try reader.expectEnd()
        return .reference(name: name, body: definition.body, at: position)
    }

    private mutating func loop(
        _ reader: inout NotationLineReader, block: NotationBlock, at position: NotationPosition
    ) throws(HapticNotationError) -> NotationStatement {
        reader.next()
        guard case .count(let value)? = reader.peek?.kind else {
            throw reader.error(.missingRepeatCount(found: reader.peek?.text))
        }
        guard value == value.rounded() else { throw reader.error(.invalidNumber(reader.peek?.text ?? "")) }
        guard value >= 1, value <= Double(limits.maximumLoopCount) else {
            throw reader.error(.valueOutOfRange(
                what: "repeat count", value: value, allowed: "from 1x to \(limits.maximumLoopCount)x"))
        }
        reader.next()
        let interval = try reader.time("an interval such as '0.25s'")
        try header(&reader, block: block)
        let items = try statements(block.children, in: .slots)
        return .loop(count: Int(value), interval: interval, items: items, at: position)
    }

    private mutating func continuous(
        _ reader: inout NotationLineReader, block: NotationBlock
    ) throws(HapticNotationError) -> ContinuousBlock {
        reader.next()
        let durationColumn = reader.column
        let duration = try reader.time("a duration such as '0.5s'")
        guard duration > 0 else {
            throw reader.error(.valueOutOfRange(what: "duration", value: duration, allowed: "above 0 s"),
                               at: durationColumn)
        }
        try header(&reader, block: block)
        if duration > HapticNotation.longestContinuous {
            warnings.append(source.warning(
                "a continuous event longer than 30 s is longer than Core Haptics plays",
                line: block.line.number, column: durationColumn))
        }
        var result = ContinuousBlock(duration: duration)
        try Self.properties(block, named: "continuous", allowed: ["intensity", "sharpness", "adsr"], source: source) {
            (name, reader) throws(HapticNotationError) in
            switch name {
            case "intensity": result.intensity = try intensity(&reader)
            case "sharpness": result.sharpness = try sharpness(&reader)
            default: result.envelope = try envelope(&reader)
            }
        }
        return result
    }

    private mutating func ramp(
        _ reader: inout NotationLineReader, block: NotationBlock
    ) throws(HapticNotationError) -> RampBlock {
        reader.next()
        let duration = try reader.time("a duration such as '2s'")
        try header(&reader, block: block)
        var result = RampBlock(duration: duration)
        try Self.properties(
            block, named: "ramp", allowed: ["intensity", "sharpness", "interval", "curve"], source: source
        ) {
            (name, reader) throws(HapticNotationError) in
            switch name {
            case "intensity":
                let from = try intensity(&reader)
                try reader.expect(.arrow, "'>' between the start and end values")
                result.intensity = RampTransition(from: from, to: try intensity(&reader))
            case "sharpness":
                let from = try sharpness(&reader)
                try reader.expect(.arrow, "'>' between the start and end values")
                result.sharpness = RampTransition(from: from, to: try sharpness(&reader))
            case "interval":
                let from = try positiveTime(&reader)
                try reader.expect(.arrow, "'>' between the start and end intervals")
                result.interval = RampTransition(from: from, to: try positiveTime(&reader))
            default:
                result.curve = try curve(&reader)
            }
        }
        return result
    }

    // MARK: Blocks and properties

    /// The `:` that ends a header, and the indented block it promises.
    private func header(_ reader: inout NotationLineReader, block: NotationBlock) throws(HapticNotationError) {
        let colon = reader.column
        try reader.expect(.colon, "':' to open the block")
        let header = block.line.tokens.prefix(through: colonIndex(of: block.line))
            .map(\.text).joined(separator: " ").replacingColonSpacing()
        // `define tick: soft sharp` puts the block on the header's line, where it cannot go.
        guard reader.isAtEnd else { throw reader.error(.missingBlock(header: header)) }
        guard !block.children.isEmpty else { throw reader.error(.missingBlock(header: header), at: colon) }
    }

    private func colonIndex(of line: NotationLine) -> Int {
        line.tokens.firstIndex { $0.kind == .colon } ?? line.tokens.count - 1
    }

    /// The `name: value` lines of a property block, each handed to `read` once.
    private static func properties(
        _ block: NotationBlock, named blockName: String, allowed: Set<String>, source: NotationSource,
        read: (String, inout NotationLineReader) throws(HapticNotationError) -> Void
    ) throws(HapticNotationError) {
        var seen: [String: Int] = [:]
        for child in block.children {
            var reader = NotationLineReader(line: child.line, source: source)
            guard case .word(let name)? = reader.peek?.kind else {
                throw reader.unexpected("a property of '\(blockName)'")
            }
            guard allowed.contains(name) else {
                if NotationVocabulary.properties.contains(name) {
                    throw reader.error(.propertyNotAllowed(name, block: blockName))
                }
                let suggestion = SpellingSuggestion.closest(to: name, among: allowed)
                throw reader.error(.unknownProperty(name, block: blockName, suggestion: suggestion))
            }
            if let firstLine = seen[name] { throw reader.error(.duplicateProperty(name, firstLine: firstLine)) }
            seen[name] = child.line.number
            reader.next()
            try reader.expect(.colon, "':' after '\(name)'")
            try read(name, &reader)
            try reader.expectEnd()
            if let grandchild = child.children.first {
                throw source.error(.unexpectedIndentation, line: grandchild.line.number,
                                   column: grandchild.line.indentation.count + 1)
            }
        }
    }

    // MARK: Values

    private mutating func intensity(_ reader: inout NotationLineReader) throws(HapticNotationError) -> Double {
        try level(&reader, name: "intensity", aliases: NotationVocabulary.intensityAliases,
                  others: NotationVocabulary.sharpnessAliases) { kind in
            if case .intensityValue(let value) = kind { value } else { nil }
        }
    }

    private mutating func sharpness(_ reader: inout NotationLineReader) throws(HapticNotationError) -> Double {
        try level(&reader, name: "sharpness", aliases: NotationVocabulary.sharpnessAliases,
                  others: NotationVocabulary.intensityAliases) { kind in
            if case .sharpnessValue(let value) = kind { value } else { nil }
        }
    }

    /// An intensity or sharpness: an alias, a raw `i`/`s` value or a plain number, clamped to 0–1
    /// with a warning as Core Haptics clamps AHAP values.
    private mutating func level(
        _ reader: inout NotationLineReader, name: String, aliases: [String: Double], others: [String: Double],
        raw: (NotationToken.Kind) -> Double?
    ) throws(HapticNotationError) -> Double {
        let expected = "\(name) (\(aliases.sorted { $0.value < $1.value }.map(\.key).joined(separator: ", ")) or a number)"
        guard let token = reader.peek else { throw reader.unexpected(expected) }
        var value: Double
        switch token.kind {
        case .word(let word):
            if let alias = aliases[word] {
                value = alias
            } else if others[word] != nil {
                throw reader.unexpected(expected)
            } else {
                throw reader.unexpected(expected, suggestion: SpellingSuggestion.closest(to: word, among: aliases.keys))
            }
        case .number(let number):
            value = number
        default:
            guard let number = raw(token.kind) else { throw reader.unexpected(expected) }
            value = number
        }
        reader.next()
        if !(0...1).contains(value) {
            let clamped = min(max(value, 0), 1)
            warnings.append(source.warning(
                "\(name) \(NotationNumberFormat.text(value)) is outside 0–1; clamped to \(NotationNumberFormat.text(clamped))",
                line: reader.line.number, column: token.column))
            value = clamped
        }
        return value
    }

    private func positiveTime(_ reader: inout NotationLineReader) throws(HapticNotationError) -> Double {
        let column = reader.column
        let value = try reader.time("an interval such as '0.1s'")
        guard value > 0 else {
            throw reader.error(.valueOutOfRange(what: "interval", value: value, allowed: "above 0 s"), at: column)
        }
        return value
    }

    /// `a, d, s, r`, each 0–1, with attack ≤ decay ≤ release.
    private func envelope(_ reader: inout NotationLineReader) throws(HapticNotationError) -> ADSREnvelope {
        let start = reader.column
        var values: [Double] = []
        for (index, part) in ["attack", "decay", "sustain level", "release"].enumerated() {
            if index > 0 { try reader.expect(.comma, "',' and the \(part)") }
            let (value, column) = try reader.number("the \(part) (a number from 0 to 1)")
            guard (0...1).contains(value) else {
                throw reader.error(.valueOutOfRange(what: part, value: value, allowed: "in 0–1"), at: column)
            }
            values.append(value)
        }
        guard values[0] <= values[1], values[1] <= values[3] else { throw reader.error(.adsrOutOfOrder, at: start) }
        return ADSREnvelope(attack: values[0], decay: values[1], sustain: values[2], release: values[3])
    }

    private func curve(_ reader: inout NotationLineReader) throws(HapticNotationError) -> RampCurve {
        let expected = "a curve (linear, easeIn, easeOut, easeInOut or cubic(x1, y1, x2, y2))"
        guard case .word(let name)? = reader.peek?.kind else { throw reader.unexpected(expected) }
        switch name {
        case "linear": reader.next(); return .linear
        case "easeIn": reader.next(); return .easeIn
        case "easeOut": reader.next(); return .easeOut
        case "easeInOut": reader.next(); return .easeInOut
        case "cubic":
            reader.next()
            try reader.expect(.openParenthesis, "'(' after 'cubic'")
            var values: [Double] = []
            for (index, part) in ["x1", "y1", "x2", "y2"].enumerated() {
                if index > 0 { try reader.expect(.comma, "',' and \(part)") }
                let (value, column) = try reader.number(part)
                if index % 2 == 0, !(0...1).contains(value) {
                    throw reader.error(.valueOutOfRange(what: part, value: value, allowed: "in 0–1"), at: column)
                }
                values.append(value)
            }
            try reader.expect(.closeParenthesis, "')' to close 'cubic('")
            return .cubic(x1: values[0], y1: values[1], x2: values[2], y2: values[3])
        default:
            throw reader.unexpected(expected, suggestion: SpellingSuggestion.closest(to: name, among: NotationVocabulary.curves))
        }
    }
}

extension String {
    /// `sequence 0.1s :` → `sequence 0.1s:`, for quoting a header back to its writer.
    fileprivate func replacingColonSpacing() -> String {
        hasSuffix(" :") ? String(dropLast(2)) + ":" : self
    }
}
