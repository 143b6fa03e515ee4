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
    /// What sampling reads of each event, by its index in `pattern.events`.
    private let sampled: [SampledEvent]

    /// What a sample of one event reads, worked out once and kept together: a stream asks at
    /// every sample (a 220 s clip at 1 kHz asked 440,000 times), and `HapticEvent.value(of:)`
    /// scans the event's parameters, its channel is a switch over its type, its end a sum.
    private struct SampledEvent {
        var start: Double
        /// `HapticEvent.soundingEnd`.
        var end: Double
        var type: HapticEventType
        /// The controls that scale its level and offset its tone (`EventChannel`).
        var levelControl: DynamicParameterID
        var toneControl: DynamicParameterID
        /// Its own level and tone.
        var own: DriveLevel
        /// Nil for a transient.
        var envelope: EventEnvelope?
    }

    /// Prepares `pattern` for evaluation (envelopes and control timeline are built once).
    public init(_ pattern: HapticPattern) {
        self.pattern = pattern
        let controls = ControlTimeline(pattern: pattern)
        self.controls = controls
        self.sampled = pattern.events.map { event in
            let channel = EventChannel.of(event.type)
            return SampledEvent(
                start: event.time, end: event.soundingEnd, type: event.type,
                levelControl: channel.levelControl, toneControl: channel.toneControl,
                own: DriveLevel(intensity: event.value(of: channel.level), sharpness: event.value(of: channel.tone)),
                envelope: Self.envelope(of: event, controls: controls)
            )
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
        let event = sampled[index]
        var cursor = ControlTimeline.Cursor()
        let (intensity, sharpness) = pattern.events[index].isEmphasis
            ? (Self.unit(event.own.intensity), Self.unit(event.own.sharpness))
            : shaped(event, gain: 1, at: event.start, cursor: &cursor)
        return TransientImpulse(eventIndex: index, time: event.start, intensity: intensity, sharpness: sharpness)
    }

    /// The non-transient event at `index` at `time`, or nil when it is not sounding then.
    public func sounding(eventAt index: Int, at time: Double) -> SoundingEvent? {
        var cursor = ControlTimeline.Cursor()
        return sounding(eventAt: index, at: time, cursor: &cursor)
    }

    /// The same, its controls looked up from where `cursor` found them last: for a renderer that
    /// asks at times that only grow (`ControlTimeline.Hint`). Inlined: a stream samples it at
    /// every update, from two places (one event alone, or a mix).
    @inline(__always)
    func sounding(eventAt index: Int, at time: Double, cursor: inout ControlTimeline.Cursor) -> SoundingEvent? {
        // Read from `sampled`, which holds no reference: a copy of the `HapticEvent` retained and
        // released its parameters at every sample.
        let event = sampled[index]
        guard let envelope = event.envelope, time >= event.start, time < event.end else { return nil }
        let (intensity, sharpness) = shaped(event, gain: envelope.gain(at: time - event.start), at: time, cursor: &cursor)
        return SoundingEvent(eventIndex: index, type: event.type, intensity: intensity, sharpness: sharpness)
    }

    /// The end of the stretch from `time` over which `sounding(eventAt: index, at:)` gives what
    /// it gives at `time`, bit for bit: its envelope and both of its controls are steady there.
    /// `time` itself while any of them moves.
    func steadyUntil(eventAt index: Int, after time: Double) -> Double {
        stretch(ofEventAt: index, after: time) { controls.steadyUntil($0, after: $1) }
    }

    /// The end of the stretch from `time` over which `sounding(eventAt: index, at:)` only rises or
    /// only falls in intensity, at one sharpness bit for bit: its envelope and tone control are
    /// steady and its level control follows one straight line (`ControlTimeline.straightUntil`),
    /// so its intensity is that line times constants, clamped. `time` itself otherwise. `cursor`
    /// is where the look-up at `time` found the controls.
    func straightUntil(eventAt index: Int, after time: Double, cursor: ControlTimeline.Cursor) -> Double {
        stretch(ofEventAt: index, after: time) { controls.straightUntil($0, after: $1, hint: cursor.level) }
    }

    /// The end of the stretch from `time` over which the event's envelope and tone control are
    /// steady and `level` says its level control stays as wanted; `time` itself otherwise.
    private func stretch(ofEventAt index: Int, after time: Double, level: (DynamicParameterID, Double) -> Double) -> Double {
        let event = sampled[index]
        guard let envelope = event.envelope else { return time }
        let local = time - event.start
        let envelopeSteady = envelope.steadyUntil(after: local)
        guard envelopeSteady > local else { return time }
        return min(event.start + envelopeSteady, event.end, level(event.levelControl, time), controls.steadyUntil(event.toneControl, after: time))
    }

    /// The event's level and tone at `time` after `gain` (its envelope's) and its controls.
    private func shaped(_ event: SampledEvent, gain: Double, at time: Double, cursor: inout ControlTimeline.Cursor) -> (Double, Double) {
        let intensity = event.own.intensity * gain * controls.value(of: event.levelControl, at: time, hint: &cursor.level)
        let sharpness = event.own.sharpness + controls.value(of: event.toneControl, at: time, hint: &cursor.tone)
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
