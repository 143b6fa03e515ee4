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

    /// A reader for times that never go backwards, as both renderers sample.
    func cursor() -> StreamCursor { StreamCursor(self) }
}

/// Reads mixed levels at non-decreasing times. It keeps only what is sounding, so a long span
/// with thousands of taps (rain, engine rumble) costs per sample what sounds then, not the whole
/// pattern.
struct StreamCursor {
    private let evaluator: PatternEvaluator
    private let events: [(index: Int, start: Double, end: Double)]
    private let pulses: [Pulse]
    private var nextEvent = 0
    private var nextPulse = 0
    private var activeEvents: [(index: Int, start: Double, end: Double)] = []
    private var activePulses: [Pulse] = []
    /// The earliest end among the active events and pulses: the active lists change only there,
    /// so most samples skip the scan.
    private var earliestEnd = Double.infinity
    /// Where the controls were found at the last sample.
    private var controls = ControlTimeline.Cursor()

    init(_ slice: StreamSlice) {
        let pattern = slice.evaluator.pattern
        evaluator = slice.evaluator
        events = slice.events
            .map { (index: $0, start: pattern.events[$0].time, end: pattern.events[$0].soundingEnd) }
            .sorted { $0.start < $1.start }
        pulses = slice.pulses.sorted { $0.time < $1.time }
    }

    /// The mixed level at `time`; `time` must not be earlier than the previous call's.
    mutating func level(at time: Double) -> DriveLevel {
        while nextEvent < events.count, events[nextEvent].start <= time {
            activeEvents.append(events[nextEvent])
            earliestEnd = min(earliestEnd, events[nextEvent].end)
            nextEvent += 1
        }
        while nextPulse < pulses.count, pulses[nextPulse].time <= time {
            activePulses.append(pulses[nextPulse])
            earliestEnd = min(earliestEnd, pulses[nextPulse].end)
            nextPulse += 1
        }
        if earliestEnd <= time {
            activeEvents.removeAll { $0.end <= time }
            activePulses.removeAll { $0.end <= time }
            earliestEnd = min(activeEvents.lazy.map(\.end).min() ?? .infinity, activePulses.lazy.map(\.end).min() ?? .infinity)
        }
        if activeEvents.count == 1, activePulses.isEmpty {
            // One event, the common case: what the mix makes of its level, without the sums.
            guard let sounding = evaluator.sounding(eventAt: activeEvents[0].index, at: time, cursor: &controls) else { return .silent }
            return DriveLevel.Mix.single(DriveLevel(intensity: sounding.intensity, sharpness: sounding.sharpness))
        }
        var mix = DriveLevel.Mix()
        for event in activeEvents {
            if let sounding = evaluator.sounding(eventAt: event.index, at: time, cursor: &controls) {
                mix.add(DriveLevel(intensity: sounding.intensity, sharpness: sounding.sharpness))
            }
        }
        for pulse in activePulses { mix.add(pulse.level) }
        return mix.level
    }

    /// The end of the stretch from `time`, the time of the last `level(at:)`, over which
    /// `level(at:)` returns what it returned then: nothing starts or ends, and every sounding
    /// event is steady (`PatternEvaluator.steadyUntil`). `time` itself while anything moves.
    func steadyUntil(after time: Double) -> Double {
        var until = min(earliestEnd, nextEvent < events.count ? events[nextEvent].start : .infinity,
                        nextPulse < pulses.count ? pulses[nextPulse].time : .infinity)
        for event in activeEvents where until > time {
            until = min(until, evaluator.steadyUntil(eventAt: event.index, after: time))
        }
        return until
    }

    /// The end of the stretch from `time`, the time of the last `level(at:)`, over which
    /// `level(at:)` only rises or only falls in intensity at one sharpness: one event sounds and
    /// no pulse, nothing starts or ends, and the event's intensity follows a straight line
    /// (`PatternEvaluator.straightUntil`). `time` itself otherwise.
    func straightUntil(after time: Double) -> Double {
        guard activeEvents.count == 1, activePulses.isEmpty else { return time }
        let until = min(earliestEnd, nextEvent < events.count ? events[nextEvent].start : .infinity,
                        nextPulse < pulses.count ? pulses[nextPulse].time : .infinity)
        guard until > time else { return time }
        return min(until, evaluator.straightUntil(eventAt: activeEvents[0].index, after: time, cursor: controls))
    }
}
