/// A transient rendered as a short amplitude pulse instead of a ROM effect.
struct Pulse: Sendable, Hashable {
    var time: Double
    var length: Double
    var level: DriveLevel

    var end: Double { time + length }

    init(_ impulse: TransientImpulse) {
        time = impulse.time
        length = SharpnessMapping.pulseLength(sharpness: impulse.sharpness)
        level = DriveLevel(intensity: impulse.intensity, sharpness: impulse.sharpness)
    }
}

/// A time span [start, end) in pattern seconds.
struct TimeSpan: Sendable, Hashable {
    var start: Double
    var end: Double

    func overlaps(_ other: TimeSpan) -> Bool { start < other.end && other.start < end }
}

/// What is rendered as a stream (real-time amplitude or PCM): continuous events and pulses,
/// mixed with `DriveLevel.mix`.
struct StreamContent: Sendable {
    /// Indices of continuous haptic events.
    var events: [Int] = []
    var pulses: [Pulse] = []

    var isEmpty: Bool { events.isEmpty && pulses.isEmpty }

    /// The stretches where something streams, with spans closer than `joinGap` joined (no point
    /// stopping the stream for less than one update).
    func spans(in pattern: HapticPattern, joinGap: Double) -> [TimeSpan] {
        let raw = events.map { TimeSpan(start: pattern.events[$0].time, end: pattern.events[$0].soundingEnd) }
            + pulses.map { TimeSpan(start: $0.time, end: $0.end) }
        var merged: [TimeSpan] = []
        for span in raw.filter({ $0.end > $0.start }).sorted(by: { $0.start < $1.start }) {
            if let last = merged.last, span.start <= last.end + joinGap {
                merged[merged.count - 1].end = max(last.end, span.end)
            } else {
                merged.append(span)
            }
        }
        return merged
    }

    /// The part of the content inside `span`, ready for sampling.
    func slice(_ span: TimeSpan, evaluator: PatternEvaluator) -> StreamSlice {
        let pattern = evaluator.pattern
        return StreamSlice(
            evaluator: evaluator,
            events: events.filter { span.overlaps(TimeSpan(start: pattern.events[$0].time, end: pattern.events[$0].soundingEnd)) },
            pulses: pulses.filter { span.overlaps(TimeSpan(start: $0.time, end: $0.end)) }
        )
    }
}

/// The content of one streaming span.
struct StreamSlice: Sendable {
    var evaluator: PatternEvaluator
    var events: [Int]
    var pulses: [Pulse]

    /// The mixed level at `time`.
    func level(at time: Double) -> DriveLevel {
        var levels: [DriveLevel] = []
        for index in events {
            if let sounding = evaluator.sounding(eventAt: index, at: time) {
                levels.append(DriveLevel(intensity: sounding.intensity, sharpness: sounding.sharpness))
            }
        }
        for pulse in pulses where time >= pulse.time && time < pulse.end {
            levels.append(pulse.level)
        }
        return DriveLevel.mix(levels)
    }
}
