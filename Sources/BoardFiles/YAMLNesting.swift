/// How deeply a YAML text can nest, at most, read from the text alone before it is parsed.
///
/// Yams composes a document by recursion, a few stack frames per level: a board of 5,000 nested
/// `[` (10 KB) overflowed the main thread's 8 MB stack and the command died of SIGSEGV. libyaml
/// sets no limit of its own, so the text is bounded first.
///
/// Every level a collection adds comes from a flow bracket (`[`, `{`), from a block indicator
/// (`-`, `?`, `:`) on a line, or from a line's indentation — a block sequence may sit at its
/// mapping key's indentation, so a level of indentation can hold two. In flow, a single pair
/// (`[a: [b: …]]`) adds a level per bracket too. So the bound is twice the deepest flow nesting
/// plus, for the worst line, twice its indentation (and one) and every indicator on it. It
/// counts indicators inside scalars and comments as well (`vib-rated-mv` counts two): a bound,
/// never below the real depth, and for the shipped boards 20 at most.
enum YAMLNesting {
    static func bound(of text: String) -> Int {
        var deepestFlow = 0
        var flow = 0
        var worstLine = 0
        var indentation = 0
        var indicators = 0
        var atIndentation = true
        func endLine() {
            worstLine = max(worstLine, 2 * (indentation + 1) + indicators)
            indentation = 0
            indicators = 0
            atIndentation = true
        }
        for byte in text.utf8 {
            if byte == UInt8(ascii: "\n") {
                endLine()
                continue
            }
            if atIndentation, byte == UInt8(ascii: " ") {
                indentation += 1
                continue
            }
            atIndentation = false
            switch byte {
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                flow += 1
                deepestFlow = max(deepestFlow, flow)
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                flow = max(flow - 1, 0)
            case UInt8(ascii: "-"), UInt8(ascii: "?"), UInt8(ascii: ":"):
                indicators += 1
            default:
                break
            }
        }
        endLine()
        return 2 * deepestFlow + worstLine
    }
}
