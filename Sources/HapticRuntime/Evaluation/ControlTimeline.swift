/// The value of each dynamic parameter over time, from the pattern's `Parameter` entries and
/// parameter curves.
///
/// Rule: at time t the source (dynamic parameter or curve) that started most recently at or before
/// t decides the value; a curve wins a tie with a parameter at the same time. A parameter holds its
/// value; a curve interpolates linearly between its control points (times relative to the curve
/// start), holds its first value before the first point and its last value after the last point.
/// Values are clamped to the id's range; with no source the id's default applies.
public struct ControlTimeline: Sendable {
    private enum Source: Sendable {
        case constant(Double)
        case curve([ControlPoint])
    }

    private struct Entry: Sendable {
        var start: Double
        var source: Source
    }

    /// Per id (at its `DynamicParameterID.ordinal`), entries sorted by start time (curves after
    /// parameters at equal times). An array, not a dictionary: compiling looks up a control per
    /// event per sample, and a dictionary keyed by the id hashes its raw string each time (half
    /// of `value(of:at:)`'s time in a profile of `inspect --program`).
    private let entries: [[Entry]]
    /// Per id, in the same order: its range and default value. `DynamicParameterID.range` and
    /// `.defaultValue` are calls to switches, and a stream made them for two controls per event
    /// at every sample.
    private let limits: [Limits]

    private struct Limits: Sendable {
        var lower: Double
        var upper: Double
        var defaultValue: Double
    }
    /// Whether every entry's start and every curve point's time is a number: then a look-up's
    /// answer is the one place where the times pass it, and a `Hint` can be checked instead of
    /// searched for. (Among NaN times, sorting and searching give no such place.)
    private let timesAreOrdered: Bool

    /// Where a look-up found a control: how many of its entries had started and which segment of
    /// the deciding curve held the time. A renderer asks at times that only grow, so the next
    /// look-up mostly finds the same place or the next one, where a search of a curve of thousands
    /// of points (a force-feedback wave has 32 per period) took a dozen steps per sample. Only a
    /// hint: each answer is checked, and is the one a search would find. Plain values, so a
    /// caller keeps it on the stack.
    struct Hint {
        fileprivate var startedEntries = -1
        fileprivate var segment = -1
    }

    /// A hint for an event's level control and one for its tone control (`EventChannel`).
    struct Cursor {
        var level = Hint()
        var tone = Hint()
    }

    /// Builds the timeline from dynamic parameters and curves in any order.
    public init(parameters: [DynamicParameter], curves: [ParameterCurve]) {
        var entries = [[(entry: Entry, rank: Int)]](repeating: [], count: DynamicParameterID.allCases.count)
        for parameter in parameters {
            entries[parameter.id.ordinal].append((Entry(start: parameter.time, source: .constant(parameter.value)), 0))
        }
        for curve in curves where !curve.controlPoints.isEmpty {
            let points = curve.controlPoints.sorted { $0.time < $1.time }
            entries[curve.id.ordinal].append((Entry(start: curve.time, source: .curve(points)), 1))
        }
        self.entries = entries.map { list in
            list.enumerated()
                .sorted { lhs, rhs in
                    let (l, r) = (lhs.element, rhs.element)
                    if l.entry.start != r.entry.start { return l.entry.start < r.entry.start }
                    if l.rank != r.rank { return l.rank < r.rank }
                    return lhs.offset < rhs.offset
                }
                .map(\.element.entry)
        }
        var limits = [Limits](repeating: Limits(lower: 0, upper: 0, defaultValue: 0), count: DynamicParameterID.allCases.count)
        for id in DynamicParameterID.allCases {
            limits[id.ordinal] = Limits(lower: id.range.lowerBound, upper: id.range.upperBound, defaultValue: id.defaultValue)
        }
        self.limits = limits
        timesAreOrdered = !parameters.contains { $0.time.isNaN }
            && !curves.contains { $0.time.isNaN || $0.controlPoints.contains { $0.time.isNaN } }
    }

    /// Builds the timeline of a pattern's parameters and curves.
    public init(pattern: HapticPattern) {
        self.init(parameters: pattern.parameters, curves: pattern.parameterCurves)
    }

    /// The value of `id` at `time`, clamped to its range.
    public func value(of id: DynamicParameterID, at time: Double) -> Double {
        var hint = Hint()
        return value(of: id, at: time, hint: &hint)
    }

    /// The same, trying where `hint` says the last look-up found `id` before searching, and
    /// leaving there what it finds.
    func value(of id: DynamicParameterID, at time: Double, hint: inout Hint) -> Double {
        let list = entries[id.ordinal]
        if !(timesAreOrdered && Self.isCount(hint.startedEntries, ofEntriesStartingAtOrBefore: time, in: list)) {
            hint.startedEntries = Self.entriesStarting(atOrBefore: time, in: list)
        }
        let limits = limits[id.ordinal]
        guard hint.startedEntries > 0 else { return limits.defaultValue }
        let entry = list[hint.startedEntries - 1]
        let raw: Double
        switch entry.source {
        case .constant(let value): raw = value
        case .curve(let points):
            if !timesAreOrdered { hint.segment = -1 }
            raw = Self.interpolate(points, at: time - entry.start, segment: &hint.segment)
        }
        return min(limits.upper, max(limits.lower, raw))
    }

    /// The end of the stretch from `time` over which `value(of: id, at:)` returns the value it
    /// returns at `time`, bit for bit: the next entry's start, the end of a flat curve segment,
    /// the curve's first point while it holds that value. `time` itself where the value moves
    /// (on a sloped curve segment).
    func steadyUntil(_ id: DynamicParameterID, after time: Double) -> Double {
        let list = entries[id.ordinal]
        let following = Self.entriesStarting(atOrBefore: time, in: list)
        let next = following < list.count ? list[following].start : .infinity
        guard following > 0, case .curve(let points) = list[following - 1].source,
              let first = points.first, let last = points.last else { return next }
        let start = list[following - 1].start
        let offset = time - start
        // Compared with what `interpolate` gives at `offset` itself, which at the first point's
        // time is that point's value even where later points share its time.
        let here = Self.interpolate(points, at: offset)
        if offset < first.time { return min(next, start + first.time) }
        if offset >= last.time { return here == last.value ? next : time }
        let (low, high) = Self.segment(of: points, around: offset)
        let flat = here == points[low].value && points[low].value == points[high].value
        return flat ? min(next, start + points[high].time) : time
    }

    /// The end of the stretch from `time` over which `value(of: id, at:)` follows one straight
    /// line, so only rises or only falls: a curve's segment, its flat start before the first point
    /// or end after the last, a constant; the next entry's start bounds it. Interpolation is
    /// a + (b − a) × (t − t₀) / span, each step correctly rounded, so it is monotone in t bit for
    /// bit, and so is the clamp after it. `time` itself where a time is NaN (no order to rely on).
    /// `hint`, where the last look-up at `time` found the control, is checked before searching:
    /// a renderer asks at every segment of a wave of thousands of points.
    func straightUntil(_ id: DynamicParameterID, after time: Double, hint: Hint = Hint()) -> Double {
        guard timesAreOrdered else { return time }
        let list = entries[id.ordinal]
        let following = Self.isCount(hint.startedEntries, ofEntriesStartingAtOrBefore: time, in: list)
            ? hint.startedEntries : Self.entriesStarting(atOrBefore: time, in: list)
        let next = following < list.count ? list[following].start : .infinity
        guard following > 0, case .curve(let points) = list[following - 1].source,
              let first = points.first, let last = points.last else { return next }
        let start = list[following - 1].start
        let offset = time - start
        if offset < first.time { return min(next, start + first.time) }
        if offset >= last.time { return next }
        let low = hint.segment
        let hinted = low >= 0 && low + 1 < points.count && points[low].time <= offset && offset < points[low + 1].time
        return min(next, start + points[hinted ? low + 1 : Self.segment(of: points, around: offset).high].time)
    }

    /// Whether exactly `count` of `list`'s entries (in order of start) start at or before `time`.
    /// Inlined, as the hinted `interpolate` is: both run for every control at every sample, and
    /// the optimiser left them calls (an upload of a 10 s sine: 9.86 → 9.20 million instructions).
    @inline(__always)
    private static func isCount(_ count: Int, ofEntriesStartingAtOrBefore time: Double, in list: [Entry]) -> Bool {
        count >= 0 && count <= list.count && (count == 0 || list[count - 1].start <= time)
            && (count == list.count || !(list[count].start <= time))
    }

    /// How many of `list`'s entries start at or before `time`.
    private static func entriesStarting(atOrBefore time: Double, in list: [Entry]) -> Int {
        // Binary search: curves of 1,000+ points and many parameters are common in real files.
        list.partitionIndex { !($0.start <= time) }
    }

    /// The segment of sorted `points` (two or more) that `offset`, between the first and last
    /// point's times, falls in: points[low].time ≤ offset < points[high].time, high = low + 1.
    private static func segment(of points: [ControlPoint], around offset: Double) -> (low: Int, high: Int) {
        var low = 0
        var high = points.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if points[middle].time <= offset { low = middle } else { high = middle }
        }
        return (low, high)
    }

    /// Linear interpolation over sorted, non-empty `points` at `offset` seconds from the curve start.
    static func interpolate(_ points: [ControlPoint], at offset: Double) -> Double {
        var segment = -1
        return interpolate(points, at: offset, segment: &segment)
    }

    /// The same, trying the segment starting at point `segment`, then the one after it, before
    /// searching (-1: search at once); `segment` is left at the one used. Points sorted by time,
    /// none NaN, when it is not -1: the segment holding `offset` is then the only one.
    @inline(__always)
    private static func interpolate(_ points: [ControlPoint], at offset: Double, segment hint: inout Int) -> Double {
        guard let first = points.first, let last = points.last else { return 0 }
        if offset <= first.time { return first.value }
        if offset >= last.time { return last.value }
        let holds = { (low: Int) in low + 1 < points.count && points[low].time <= offset && offset < points[low + 1].time }
        if hint >= 0, holds(hint) {
            // Still in the same segment.
        } else if hint >= 0, holds(hint + 1) {
            hint += 1
        } else {
            hint = segment(of: points, around: offset).low
        }
        let (low, high) = (hint, hint + 1)
        let (a, b) = (points[low], points[high])
        let span = b.time - a.time
        guard span > 0 else { return b.value }
        return a.value + (b.value - a.value) * (offset - a.time) / span
    }
}

extension DynamicParameterID {
    /// The id's position in `allCases`, for tables indexed by id.
    var ordinal: Int {
        switch self {
        case .hapticIntensityControl: 0
        case .hapticSharpnessControl: 1
        case .hapticAttackTimeControl: 2
        case .hapticDecayTimeControl: 3
        case .hapticReleaseTimeControl: 4
        case .audioVolumeControl: 5
        case .audioPanControl: 6
        case .audioPitchControl: 7
        case .audioBrightnessControl: 8
        case .audioAttackTimeControl: 9
        case .audioDecayTimeControl: 10
        case .audioReleaseTimeControl: 11
        }
    }
}
