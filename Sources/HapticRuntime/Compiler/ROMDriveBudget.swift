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
    /// The span the rated voltage is an RMS over.
    static let window = 0.1

    /// Level share of full scale whose sustained drive is the rated voltage (1: no bound).
    let limit: Double
    /// The effects placed so far: when they drive and their mean square level.
    private var spans: [(start: Double, end: Double, power: Double)] = []

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
        let nearby = spans.filter { $0.end > first.start - Self.window && $0.start < last.end + Self.window } + added
        let allowed = limit * limit * Self.window
        return Self.largestWindowEnergy(nearby) <= allowed * (1 + 1e-9)
    }

    /// Counts `steps` started at `time` as placed.
    mutating func add(_ steps: [SequencerStep], at time: Double) {
        guard limit < 1 else { return }
        spans += Self.spans(of: steps, at: time)
    }

    /// The effects of a sequence in time order, each with its mean square level; waits drive nothing.
    private static func spans(of steps: [SequencerStep], at time: Double) -> [(start: Double, end: Double, power: Double)] {
        var start = time
        var result: [(start: Double, end: Double, power: Double)] = []
        for step in steps {
            switch step {
            case .wait(let duration):
                start += duration.secondsValue
            case .effect(let id):
                guard let effect = DRV2605ROMEffect.effect(id) else { continue }
                let a = effect.startLevel, b = effect.endLevel
                let end = start + effect.estimatedDuration.secondsValue
                result.append((start, end, (a * a + a * b + b * b) / 3))
                start = end
            }
        }
        return result
    }

    /// The most level² × seconds any window of `window` seconds holds. The sum of overlaps is
    /// piecewise linear in the window's start, so its maximum is where the window starts at a
    /// span's start or ends at a span's end.
    private static func largestWindowEnergy(_ spans: [(start: Double, end: Double, power: Double)]) -> Double {
        let starts = spans.map(\.start) + spans.map { $0.end - window }
        return starts.map { windowStart in
            spans.reduce(0) { sum, span in
                sum + max(0, min(span.end, windowStart + window) - max(span.start, windowStart)) * span.power
            }
        }.max() ?? 0
    }
}
