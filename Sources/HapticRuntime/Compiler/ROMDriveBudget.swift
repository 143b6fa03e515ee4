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
    func allows(_ steps: [SequencerStep], at time: Double, share: Double = window) -> Bool {
        guard limit < 1 else { return true }
        let added = Self.spans(of: steps, at: time)
        guard let first = added.first, let last = added.last else { return true }
        let own = added.reduce(0) { $0 + ($1.end - $1.start) * $1.power }
        guard own <= limit * limit * min(share, Self.window) * (1 + 1e-9) else { return false }
        let nearby = spans(overlapping: (first.start - Self.window)..<(last.end + Self.window)) + added
        let allowed = limit * limit * Self.window
        return Self.largestWindowEnergy(nearby) <= allowed * (1 + 1e-9)
    }

    /// Counts `steps` started at `time` as placed.
    mutating func add(_ steps: [SequencerStep], at time: Double) {
        guard limit < 1 else { return }
        for span in Self.spans(of: steps, at: time) {
            spans.insert(span, at: firstIndex(startingAfter: span.start))
            longest = max(longest, span.end - span.start)
        }
    }

    /// The placed spans that end after `range` starts and start before it ends, in order of
    /// start. Found from the first that can reach into it, by binary search: a dense train of
    /// clicks tries several effects per transient, and a scan of every placed span for each try
    /// made compiling a minute of them take the square of their number.
    func spans(overlapping range: Range<Double>) -> [Span] {
        // Any span starting this early ends before the range starts; the margin covers rounding
        // in `longest` (a span from the margin that does not reach the range is left out below).
        var index = firstIndex(startingAfter: range.lowerBound - longest * (1 + 1e-9) - 1e-9)
        var found: [Span] = []
        while index < spans.count, spans[index].start < range.upperBound {
            if spans[index].end > range.lowerBound { found.append(spans[index]) }
            index += 1
        }
        return found
    }

    /// The index of the first placed span starting after `time`.
    private func firstIndex(startingAfter time: Double) -> Int {
        spans.partitionIndex { !($0.start <= time) }
    }

    /// The effects of a sequence in time order, each with its mean square level; waits drive nothing.
    private static func spans(of steps: [SequencerStep], at time: Double) -> [Span] {
        var start = time
        var result: [Span] = []
        for step in steps {
            switch step {
            case .wait(let duration):
                start += duration.secondsValue
            case .effect(let id):
                guard let effect = DRV2605ROMEffect.effect(id) else { continue }
                let a = effect.startLevel, b = effect.endLevel
                let end = start + effect.estimatedDuration.secondsValue
                result.append(Span(start: start, end: end, power: (a * a + a * b + b * b) / 3))
                start = end
            }
        }
        return result
    }

    /// The most level² × seconds any window of `window` seconds holds. The sum of overlaps is
    /// piecewise linear in the window's start, so its maximum is where the window starts at a
    /// span's start or ends at a span's end.
    private static func largestWindowEnergy(_ spans: [Span]) -> Double {
        var largest = 0.0
        for span in spans {
            largest = max(largest, energy(inWindowFrom: span.start, of: spans), energy(inWindowFrom: span.end - window, of: spans))
        }
        return largest
    }

    /// Level² × seconds of `spans` within the window starting at `windowStart`.
    private static func energy(inWindowFrom windowStart: Double, of spans: [Span]) -> Double {
        var sum = 0.0
        for span in spans {
            sum += max(0, min(span.end, windowStart + window) - max(span.start, windowStart)) * span.power
        }
        return sum
    }
}
