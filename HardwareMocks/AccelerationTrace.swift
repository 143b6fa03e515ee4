import ActuatorHAL

/// Acceleration of an actuator's moving mass over time, sampled evenly: what a hand on the device
/// would feel. Produced by `LRAModel`; units are those of the model's `ratedAcceleration`.
public struct AccelerationTrace: Sendable, Hashable {
    /// A local peak of |acceleration|: one point on the envelope, twice per cycle.
    public struct Crest: Sendable, Hashable {
        /// The sample time of the peak.
        public var time: MonotonicInstant
        /// |acceleration| at the peak.
        public var amplitude: Double
    }

    /// Time of `samples[0]`.
    public var start: MonotonicInstant
    /// Samples per second.
    public var sampleRate: Double
    /// Acceleration, one value per sample.
    public var samples: [Double]

    /// A trace of `samples` taken `1 / sampleRate` apart from `start`.
    public init(start: MonotonicInstant, sampleRate: Double, samples: [Double]) {
        self.start = start
        self.sampleRate = sampleRate
        self.samples = samples
    }

    /// Time of sample `index`.
    public func time(ofSample index: Int) -> MonotonicInstant {
        start + .nanoseconds(Int64((Double(index) / validRate * 1e9).rounded()))
    }

    /// Peak |acceleration| in each consecutive `window` (the last one may be shorter); a window
    /// of about one drive period gives a smooth envelope for pictures.
    public func envelope(window: Duration) -> [Double] {
        let size = max(1, Int((window.secondsValue * validRate).rounded()))
        return stride(from: 0, to: samples.count, by: size).map { first in
            samples[first..<min(first + size, samples.count)].reduce(0) { max($0, abs($1)) }
        }
    }

    /// Every local peak of |acceleration|, in time order.
    public func crests() -> [Crest] {
        guard samples.count >= 3 else { return [] }
        return (1..<(samples.count - 1)).compactMap { index in
            let here = abs(samples[index])
            guard here >= abs(samples[index - 1]), here > abs(samples[index + 1]) else { return nil }
            return Crest(time: time(ofSample: index), amplitude: here)
        }
    }

    /// How long after `driveStart` the envelope first reaches `fraction` of `reference` (by default
    /// the largest crest after `driveStart`), interpolated between crests; `nil` if it never does.
    public func riseTime(from driveStart: MonotonicInstant, to fraction: Double = 0.9, of reference: Double? = nil) -> Duration? {
        let after = crests().filter { $0.time >= driveStart }
        guard let target = reference ?? after.map(\.amplitude).max() else { return nil }
        let threshold = fraction * target
        var previous = Crest(time: driveStart, amplitude: 0)
        for crest in after {
            if crest.amplitude >= threshold {
                return Self.crossing(of: threshold, between: previous, and: crest) - driveStart
            }
            previous = crest
        }
        return nil
    }

    /// How long after `driveStop` the envelope first falls to `fraction` of its value at
    /// `driveStop` (the last crest at or before it), interpolated between crests; `nil` if there
    /// is no crest before `driveStop` or the envelope never falls that far.
    public func decayTime(after driveStop: MonotonicInstant, to fraction: Double = 0.1) -> Duration? {
        let all = crests()
        guard var previous = all.last(where: { $0.time <= driveStop }) else { return nil }
        let threshold = fraction * previous.amplitude
        for crest in all where crest.time > driveStop {
            if crest.amplitude <= threshold {
                return Self.crossing(of: threshold, between: previous, and: crest) - driveStop
            }
            previous = crest
        }
        return nil
    }

    /// `sampleRate`, or 1 Hz if it is not a positive finite number, so a hand-built trace cannot
    /// trap in time arithmetic.
    private var validRate: Double {
        sampleRate.isFinite && sampleRate > 0 ? sampleRate : 1
    }

    /// When the straight line from `first` to `second` passes `level`.
    private static func crossing(of level: Double, between first: Crest, and second: Crest) -> MonotonicInstant {
        let span = second.amplitude - first.amplitude
        guard span != 0 else { return second.time }
        let fraction = (level - first.amplitude) / span
        let nanoseconds = Double((second.time - first.time).nanoseconds) * fraction
        return first.time + .nanoseconds(Int64(nanoseconds.rounded()))
    }
}
