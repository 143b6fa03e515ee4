/// Where streaming keeps the chip from ROM playback while the compiler resolves conflicts: the
/// stream's spans joined as `StreamContent.spans` joins them, each busy from a mode switch
/// (`before`) ahead of it to a brake (`after`) behind it. Kept up to date as content is added,
/// rather than computed again from all of it after every move: a chain of taps, each moved into
/// the stream because the one after it was, made that the square of the chain's length.
struct StreamOccupancy {
    /// The joined spans, in order and apart by more than `joinGap`.
    private(set) var spans: [TimeSpan]
    let joinGap: Double
    let before: Double
    let after: Double

    /// The occupancy of `spans`, which are as `StreamContent.spans(in:joinGap:)` gives them.
    init(_ spans: [TimeSpan], joinGap: Double, before: Double, after: Double) {
        self.spans = spans
        self.joinGap = joinGap
        self.before = before
        self.after = after
    }

    /// How long the span at `index` keeps the chip busy.
    func busy(at index: Int) -> TimeSpan {
        TimeSpan(start: spans[index].start - before, end: spans[index].end + after)
    }

    /// Whether `span` overlaps a busy stretch: found by binary search for the first ending after
    /// it starts, the only one it can overlap first (their ends are in order too).
    func collides(with span: TimeSpan) -> Bool {
        let index = spans.partitionIndex { $0.end + after > span.start }
        return index < spans.count && spans[index].start - before < span.end
    }

    /// Adds content sounding over `piece` (nothing when it is empty, as `StreamContent.spans`
    /// leaves it out), joined with every span it comes within `joinGap` of.
    mutating func add(_ piece: TimeSpan) {
        guard piece.end > piece.start else { return }
        // Spans are apart by more than joinGap, so those it reaches are consecutive: from the
        // first ending within joinGap before it to the last starting within joinGap after it.
        let low = spans.partitionIndex { piece.start <= $0.end + joinGap }
        var high = low
        var joined = piece
        while high < spans.count, spans[high].start <= piece.end + joinGap {
            joined = TimeSpan(start: min(joined.start, spans[high].start), end: max(joined.end, spans[high].end))
            high += 1
        }
        spans.replaceSubrange(low..<high, with: [joined])
    }

    /// The index of the span holding `time`, a time of content added.
    func index(holding time: Double) -> Int? {
        let index = spans.partitionIndex { $0.end >= time }
        return index < spans.count && spans[index].start <= time ? index : nil
    }
}
