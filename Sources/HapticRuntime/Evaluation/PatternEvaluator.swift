/// A continuous event sounding at some time, after its envelope and the dynamic parameters.
public struct SoundingEvent: Sendable, Hashable {
    /// Index of the event in `HapticPattern.events`.
    public var eventIndex: Int
    /// The event's type (haptic or audio).
    public var type: HapticEventType
    /// Intensity (audio events: volume), 0…1.
    public var intensity: Double
    /// Sharpness (audio events: brightness), 0…1.
    public var sharpness: Double

    /// Creates a sounding-event value.
    public init(eventIndex: Int, type: HapticEventType, intensity: Double, sharpness: Double) {
        self.eventIndex = eventIndex
        self.type = type
        self.intensity = intensity
        self.sharpness = sharpness
    }
}

/// A transient: an impulse at its own time with the intensity and sharpness it strikes with.
public struct TransientImpulse: Sendable, Hashable {
    /// Index of the transient in `HapticPattern.events`.
    public var eventIndex: Int
    /// Its start time in seconds.
    public var time: Double
    /// Intensity after the intensity control, 0…1.
    public var intensity: Double
    /// Sharpness after the sharpness control, 0…1.
    public var sharpness: Double

    /// Creates an impulse value.
    public init(eventIndex: Int, time: Double, intensity: Double, sharpness: Double) {
        self.eventIndex = eventIndex
        self.time = time
        self.intensity = intensity
        self.sharpness = sharpness
    }
}

/// Everything sounding at one time.
public struct PatternState: Sendable, Hashable {
    /// The time evaluated, in seconds.
    public var time: Double
    /// Continuous events (haptic and audio) whose envelope is open at `time`, in pattern order.
    public var continuous: [SoundingEvent]
    /// Transients whose nominal length covers `time`, each with its own start time.
    public var transients: [TransientImpulse]
}

/// Evaluates "intensity and sharpness of everything sounding at t" for a pattern.
///
/// Per event: intensity = event intensity × envelope gain × intensity control (a multiplier),
/// sharpness = event sharpness + sharpness control (an offset), both clamped to 0…1; controls are
/// read at t (see `ControlTimeline`). Envelope-time controls (attack, decay, release) are offsets
/// read once at the event's start, so an event's envelope shape is fixed when it begins.
/// Transients are impulses: their intensity and sharpness use the controls at their own start.
public struct PatternEvaluator: Sendable {
    /// The pattern evaluated.
    public let pattern: HapticPattern
    /// The pattern's dynamic parameter values over time.
    public let controls: ControlTimeline
    private let envelopes: [EventEnvelope?]
    /// Each event's own level and tone, looked up once: `HapticEvent.value(of:)` scans the event's
    /// parameters, and a stream asks at every sample (a 220 s clip at 1 kHz asked 440,000 times).
    private let eventLevels: [DriveLevel]

    /// Prepares `pattern` for evaluation (envelopes and control timeline are built once).
    public init(_ pattern: HapticPattern) {
        self.pattern = pattern
        let controls = ControlTimeline(pattern: pattern)
        self.controls = controls
        self.envelopes = pattern.events.map { Self.envelope(of: $0, controls: controls) }
        self.eventLevels = pattern.events.map { event in
            let channel = EventChannel.of(event.type)
            return DriveLevel(intensity: event.value(of: channel.level), sharpness: event.value(of: channel.tone))
        }
    }

    /// The pattern duration (see `HapticPattern.duration`).
    public var duration: Double { pattern.duration }

    /// Everything sounding at `time`.
    public func state(at time: Double) -> PatternState {
        var continuous: [SoundingEvent] = []
        var transients: [TransientImpulse] = []
        for index in pattern.events.indices {
            let event = pattern.events[index]
            guard time >= event.time, time < event.soundingEnd else { continue }
            if event.type == .hapticTransient {
                transients.append(impulse(ofEventAt: index))
            } else if let sounding = sounding(eventAt: index, at: time) {
                continuous.append(sounding)
            }
        }
        return PatternState(time: time, continuous: continuous, transients: transients)
    }

    /// Every transient of the pattern as an impulse, in time order.
    public var impulses: [TransientImpulse] {
        pattern.events.indices
            .filter { pattern.events[$0].type == .hapticTransient }
            .map { impulse(ofEventAt: $0) }
            .sorted { $0.time < $1.time }
    }

    /// The transient at `index` as an impulse at its own time. A `.haptic` clip's emphasis is not
    /// shaped by the controls: the clip's curves describe its continuous signal, and Meta's players
    /// play the emphasis on a player of their own for that reason.
    public func impulse(ofEventAt index: Int) -> TransientImpulse {
        let event = pattern.events[index]
        let own = eventLevels[index]
        var cursor = ControlTimeline.Cursor()
        let (intensity, sharpness) = event.isEmphasis
            ? (Self.unit(own.intensity), Self.unit(own.sharpness))
            : shaped(eventAt: index, gain: 1, at: event.time, cursor: &cursor)
        return TransientImpulse(eventIndex: index, time: event.time, intensity: intensity, sharpness: sharpness)
    }

    /// The non-transient event at `index` at `time`, or nil when it is not sounding then.
    public func sounding(eventAt index: Int, at time: Double) -> SoundingEvent? {
        var cursor = ControlTimeline.Cursor()
        return sounding(eventAt: index, at: time, cursor: &cursor)
    }

    /// The same, its controls looked up from where `cursor` found them last: for a renderer that
    /// asks at times that only grow (`ControlTimeline.Hint`).
    func sounding(eventAt index: Int, at time: Double, cursor: inout ControlTimeline.Cursor) -> SoundingEvent? {
        // The event's fields are read in place: a copy of it retained and released its parameters
        // at every sample.
        let start = pattern.events[index].time
        guard let envelope = envelopes[index], time >= start, time < pattern.events[index].soundingEnd else { return nil }
        let (intensity, sharpness) = shaped(eventAt: index, gain: envelope.gain(at: time - start), at: time, cursor: &cursor)
        return SoundingEvent(eventIndex: index, type: pattern.events[index].type, intensity: intensity, sharpness: sharpness)
    }

    /// The end of the stretch from `time` over which `sounding(eventAt: index, at:)` gives what
    /// it gives at `time`, bit for bit: its envelope and both of its controls are steady there.
    /// `time` itself while any of them moves.
    func steadyUntil(eventAt index: Int, after time: Double) -> Double {
        let event = pattern.events[index]
        guard let envelope = envelopes[index] else { return time }
        let local = time - event.time
        let envelopeSteady = envelope.steadyUntil(after: local)
        guard envelopeSteady > local else { return time }
        let channel = EventChannel.of(event.type)
        return min(event.time + envelopeSteady, event.soundingEnd,
                   controls.steadyUntil(channel.levelControl, after: time), controls.steadyUntil(channel.toneControl, after: time))
    }

    /// The event's level and tone at `time` after `gain` (its envelope's) and its controls.
    private func shaped(eventAt index: Int, gain: Double, at time: Double, cursor: inout ControlTimeline.Cursor) -> (Double, Double) {
        let channel = EventChannel.of(pattern.events[index].type)
        let own = eventLevels[index]
        let intensity = own.intensity * gain * controls.value(of: channel.levelControl, at: time, hint: &cursor.level)
        let sharpness = own.sharpness + controls.value(of: channel.toneControl, at: time, hint: &cursor.tone)
        return (Self.unit(intensity), Self.unit(sharpness))
    }

    private static func envelope(of event: HapticEvent, controls: ControlTimeline) -> EventEnvelope? {
        guard event.type != .hapticTransient else { return nil }
        let channel = EventChannel.of(event.type)
        func time(_ id: EventParameterID, _ control: DynamicParameterID) -> Double {
            unit(event.value(of: id) + controls.value(of: control, at: event.time))
        }
        return EventEnvelope(
            attack: time(.attackTime, channel.attackControl),
            decay: time(.decayTime, channel.decayControl),
            release: time(.releaseTime, channel.releaseControl),
            sustained: event.value(of: .sustained) >= 0.5,
            duration: event.soundingDuration
        )
    }

    /// Clamps to 0…1; NaN (from a broken file) counts as 0 rather than spreading into the drive.
    private static func unit(_ value: Double) -> Double { value.isNaN ? 0 : min(1, max(0, value)) }
}
