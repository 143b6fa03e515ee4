import ActuatorHAL

/// What the ROM effects of one program may drive: over any 100 ms, the RMS of their levels stays
/// within `ActuatorCapabilities.romLevelLimit`, the share of the chip's full scale that is the
/// actuator's rated voltage.
///
/// Why: in open loop a ROM effect's full scale is the overdrive clamp, not the rated voltage, so
/// Soft Bump - 100 % (100 ms at full scale) holds an LRA rated 2.0 V rms at about 2.65 V rms. Real
/// -time drive is scaled to the rating when it is compiled; ROM effects cannot be scaled, so the
/// compiler picks ones that fit. The window is the one the rated voltage is checked over
/// (`DriveTimeline.maximumRMSVolts(over:)` in the simulated chip): short clicks may overdrive, as
/// the chip is designed to, but a sustained or tightly repeated one may not.
///
/// Each effect counts at its estimated length and the mean square of its level
/// (`DRV2605ROMEffect`), so a ramp counts evenly over its length.
struct ROMDriveBudget {
    /// One placed effect: when it drives and its mean square level.
    struct Span: Equatable {
        var start: Double
        var end: Double
        var power: Double
    }

    /// The span the rated voltage is an RMS over.
    static let window = 0.1

    /// Level share of full scale whose sustained drive is the rated voltage (1: no bound).
    let limit: Double
    /// The effects placed so far, in order of start (of equal starts, in the order placed).
    private(set) var spans: [Span] = []
    /// The longest of them: no span starting more than this before a time reaches past it.
    private var longest = 0.0

    init(limit: Double) {
        self.limit = limit
    }

    /// Whether `steps` started at `time` keep every 100 ms within the limit, with what is placed,
    /// and use no more than their `share` of it: the time until the next transient, when that is
    /// shorter than the window, so a fast train gets clicks of even strength rather than a strong
    /// one that leaves nothing for the next.
    ///
    /// Asked about every candidate effect of every transient, so it allocates nothing: the
    /// candidate's spans are laid out on the stack and the placed ones read where they are (the
    /// arrays each question built were a fifth to a half of placing a train of clicks on an
    /// open-loop chip, docs/performance.md).
    func allows(_ steps: [SequencerStep], at time: Double, share: Double = window) -> Bool {
        guard limit < 1 else { return true }
        return withUnsafeTemporaryAllocation(of: Span.self, capacity: steps.count) { buffer in
            allows(UnsafeBufferPointer(rebasing: buffer[..<Self.spans(of: steps, at: time, into: buffer)]), share: share)
        }
    }

    /// The same for one effect, what the compiler asks for each candidate of a transient.
    func allows(effect id: UInt8, at time: Double, share: Double = window) -> Bool {
        guard limit < 1, let span = Self.span(of: id, at: time) else { return true }
        return withUnsafePointer(to: span) { allows(UnsafeBufferPointer(start: $0, count: 1), share: share) }
    }

    /// Whether `added`, a candidate's spans in order of start, fit (`allows(_:at:share:)`).
    private func allows(_ added: UnsafeBufferPointer<Span>, share: Double) -> Bool {
        guard let first = added.first, let last = added.last else { return true }
        let own = added.reduce(0) { $0 + ($1.end - $1.start) * $1.power }
        guard own <= limit * limit * min(share, Self.window) * (1 + 1e-9) else { return false }
        let range = (first.start - Self.window)..<(last.end + Self.window)
        let nearby = Nearby(placed: spans, from: firstIndexReaching(range.lowerBound), overlapping: range, added: added)
        let allowed = limit * limit * Self.window
        return nearby.largestWindowEnergy() <= allowed * (1 + 1e-9)
    }

    /// Counts `steps` started at `time` as placed.
    mutating func add(_ steps: [SequencerStep], at time: Double) {
        guard limit < 1 else { return }
        withUnsafeTemporaryAllocation(of: Span.self, capacity: steps.count) { buffer in
            for span in buffer[..<Self.spans(of: steps, at: time, into: buffer)] {
                spans.insert(span, at: firstIndex(startingAfter: span.start))
                longest = max(longest, span.end - span.start)
            }
        }
    }

    /// The placed spans that end after `range` starts and start before it ends, in order of
    /// start: what a question weighs besides the candidate's own, found as `allows` finds it.
    func spans(overlapping range: Range<Double>) -> [Span] {
        var found: [Span] = []
        Nearby(placed: spans, from: firstIndexReaching(range.lowerBound), overlapping: range, added: UnsafeBufferPointer(start: nil, count: 0))
            .forEach { found.append($0) }
        return found
    }

    /// The first placed span that can reach `time`, by binary search: a dense train of clicks
    /// tries several effects per transient, and a scan of every placed span for each try made
    /// compiling a minute of them take the square of their number.
    private func firstIndexReaching(_ time: Double) -> Int {
        // Any span starting this early ends before `time`; the margin covers rounding in
        // `longest` (a span from the margin that does not reach it is left out by `Nearby`).
        firstIndex(startingAfter: time - longest * (1 + 1e-9) - 1e-9)
    }

    /// The index of the first placed span starting after `time`.
    private func firstIndex(startingAfter time: Double) -> Int {
        spans.partitionIndex { !($0.start <= time) }
    }

    /// The effects of a sequence in time order, each with its mean square level, written to the
    /// start of `buffer` (room for one per step); waits drive nothing. Returns how many.
    private static func spans(of steps: [SequencerStep], at time: Double, into buffer: UnsafeMutableBufferPointer<Span>) -> Int {
        var start = time
        var count = 0
        for step in steps {
            switch step {
            case .wait(let duration):
                start += duration.secondsValue
            case .effect(let id):
                guard let span = span(of: id, at: start) else { continue }
                buffer[count] = span
                count += 1
                start = span.end
            }
        }
        return count
    }

    /// ROM effect `id` started at `start`, with its mean square level; nil for an id no library has.
    private static func span(of id: UInt8, at start: Double) -> Span? {
        guard let effect = DRV2605ROMEffect.effect(id) else { return nil }
        let a = effect.startLevel, b = effect.endLevel
        return Span(start: start, end: start + effect.estimatedDuration.secondsValue, power: (a * a + a * b + b * b) / 3)
    }

    /// The placed spans that end after a range starts and start before it ends, in order of
    /// start, then a candidate's own: what a question about the candidate weighs.
    private struct Nearby {
        let placed: [Span]
        /// The first placed span that can reach into `range`.
        let from: Int
        let range: Range<Double>
        let added: UnsafeBufferPointer<Span>

        init(placed: [Span], from: Int, overlapping range: Range<Double>, added: UnsafeBufferPointer<Span>) {
            (self.placed, self.from, self.range, self.added) = (placed, from, range, added)
        }

        /// Every span, placed ones first, each in order of start.
        func forEach(_ body: (Span) -> Void) {
            var index = from
            while index < placed.count, placed[index].start < range.upperBound {
                if placed[index].end > range.lowerBound { body(placed[index]) }
                index += 1
            }
            for span in added { body(span) }
        }

        /// The most level² × seconds any window of `ROMDriveBudget.window` seconds holds. The sum
        /// of overlaps is piecewise linear in the window's start, so its maximum is where the
        /// window starts at a span's start or ends at a span's end.
        func largestWindowEnergy() -> Double {
            var largest = 0.0
            forEach { span in
                largest = max(largest, energy(inWindowFrom: span.start), energy(inWindowFrom: span.end - ROMDriveBudget.window))
            }
            return largest
        }

        /// Level² × seconds of the spans within the window starting at `windowStart`.
        private func energy(inWindowFrom windowStart: Double) -> Double {
            var sum = 0.0
            forEach { span in
                sum += max(0, min(span.end, windowStart + ROMDriveBudget.window) - max(span.start, windowStart)) * span.power
            }
            return sum
        }
    }
}
