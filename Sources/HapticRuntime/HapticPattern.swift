/// The Core Haptics pattern model: every content format reads into it, AHAP writes back out of it,
/// and the compiler turns it into per-actuator programs. Times are seconds from the pattern start.
public struct HapticPattern: Sendable, Hashable {
    /// AHAP `Version`, when the source gave one.
    public var version: Double?
    /// AHAP `Metadata`: free keys (Project, Created, Description, …).
    public var metadata: [String: String]
    public var events: [HapticEvent]
    /// Dynamic parameters: a value that takes effect at a time and holds.
    public var parameters: [DynamicParameter]
    public var parameterCurves: [ParameterCurve]

    public init(
        version: Double? = 1.0,
        metadata: [String: String] = [:],
        events: [HapticEvent] = [],
        parameters: [DynamicParameter] = [],
        parameterCurves: [ParameterCurve] = []
    ) {
        self.version = version
        self.metadata = metadata
        self.events = events
        self.parameters = parameters
        self.parameterCurves = parameterCurves
    }
}

/// The four Core Haptics event types; raw values are the AHAP `EventType` names.
public enum HapticEventType: String, Sendable, Hashable, CaseIterable {
    case hapticTransient = "HapticTransient"
    case hapticContinuous = "HapticContinuous"
    case audioContinuous = "AudioContinuous"
    case audioCustom = "AudioCustom"
}

/// One event of a pattern.
public struct HapticEvent: Sendable, Hashable {
    public var type: HapticEventType
    /// Start time in seconds.
    public var time: Double
    /// `EventDuration` in seconds as given (transients: pads the pattern only; nil = not given).
    public var duration: Double?
    public var parameters: [EventParameter]
    /// AudioCustom: the waveform file as written in the source (resolved by the reader).
    public var waveformPath: String?
    /// AudioCustom: `EventWaveformUseVolumeEnvelope`.
    public var waveformUsesVolumeEnvelope: Bool?
    /// AudioCustom: `EventWaveformLoopEnabled` (default false).
    public var waveformLoopEnabled: Bool?
    /// ROM effects that stand for this event (and the others of its cue group) on chips with a
    /// waveform library; set by note lists, not part of AHAP (see `ROMCue`).
    public var romCue: ROMCue? = nil
    /// A `.haptic` clip's emphasis: a click layered over the clip's continuous signal, so the
    /// compiler renders it as a pulse in that signal's amplitude stream (mixed with it) rather than
    /// as a ROM effect, which could not play inside the stream. Not part of AHAP.
    public var isEmphasis = false

    public init(
        type: HapticEventType,
        time: Double,
        duration: Double? = nil,
        parameters: [EventParameter] = [],
        waveformPath: String? = nil,
        waveformUsesVolumeEnvelope: Bool? = nil,
        waveformLoopEnabled: Bool? = nil
    ) {
        self.type = type
        self.time = time
        self.duration = duration
        self.parameters = parameters
        self.waveformPath = waveformPath
        self.waveformUsesVolumeEnvelope = waveformUsesVolumeEnvelope
        self.waveformLoopEnabled = waveformLoopEnabled
    }

    /// The value of `id` on this event: the last one given, or the parameter's default.
    public func value(of id: EventParameterID) -> Double {
        parameters.last(where: { $0.id == id })?.value ?? id.defaultValue
    }
}

/// An event parameter (`EventParameters[]`): raw values are the AHAP `ParameterID` names.
public enum EventParameterID: String, Sendable, Hashable, CaseIterable {
    case hapticIntensity = "HapticIntensity"
    case hapticSharpness = "HapticSharpness"
    case attackTime = "AttackTime"
    case decayTime = "DecayTime"
    case releaseTime = "ReleaseTime"
    case sustained = "Sustained"
    case audioVolume = "AudioVolume"
    case audioPitch = "AudioPitch"
    case audioPan = "AudioPan"
    case audioBrightness = "AudioBrightness"

    /// The allowed range; values outside are clamped (Apple's rule).
    public var range: ClosedRange<Double> {
        switch self {
        case .audioPitch, .audioPan: -1...1
        default: 0...1
        }
    }

    /// The value used when an event does not give this parameter.
    public var defaultValue: Double {
        switch self {
        case .sustained, .audioBrightness: 1
        case .hapticIntensity, .audioVolume: 1
        case .hapticSharpness: 0.5
        default: 0
        }
    }
}

public struct EventParameter: Sendable, Hashable {
    public var id: EventParameterID
    public var value: Double

    public init(_ id: EventParameterID, _ value: Double) {
        self.id = id
        self.value = value
    }
}

/// A dynamic parameter id; raw values are the AHAP names.
public enum DynamicParameterID: String, Sendable, Hashable, CaseIterable {
    case hapticIntensityControl = "HapticIntensityControl"
    case hapticSharpnessControl = "HapticSharpnessControl"
    case hapticAttackTimeControl = "HapticAttackTimeControl"
    case hapticDecayTimeControl = "HapticDecayTimeControl"
    case hapticReleaseTimeControl = "HapticReleaseTimeControl"
    case audioVolumeControl = "AudioVolumeControl"
    case audioPanControl = "AudioPanControl"
    case audioPitchControl = "AudioPitchControl"
    case audioBrightnessControl = "AudioBrightnessControl"
    case audioAttackTimeControl = "AudioAttackTimeControl"
    case audioDecayTimeControl = "AudioDecayTimeControl"
    case audioReleaseTimeControl = "AudioReleaseTimeControl"

    /// Intensity and volume controls are multipliers (0–1, default 1); the rest are offsets (−1–1, default 0).
    public var isMultiplier: Bool { self == .hapticIntensityControl || self == .audioVolumeControl }

    public var range: ClosedRange<Double> { isMultiplier ? 0...1 : -1...1 }

    public var defaultValue: Double { isMultiplier ? 1 : 0 }
}

/// A dynamic parameter: from `time` on, `id` takes `value`.
public struct DynamicParameter: Sendable, Hashable {
    public var id: DynamicParameterID
    public var value: Double
    public var time: Double

    public init(_ id: DynamicParameterID, value: Double, time: Double) {
        self.id = id
        self.value = value
        self.time = time
    }
}

/// A parameter curve: `id` follows its control points, linearly interpolated; point times are
/// relative to the curve's `time`.
public struct ParameterCurve: Sendable, Hashable {
    public var id: DynamicParameterID
    public var time: Double
    public var controlPoints: [ControlPoint]

    public init(_ id: DynamicParameterID, time: Double, controlPoints: [ControlPoint]) {
        self.id = id
        self.time = time
        self.controlPoints = controlPoints
    }
}

public struct ControlPoint: Sendable, Hashable {
    /// Seconds from the curve's start.
    public var time: Double
    public var value: Double

    public init(time: Double, value: Double) {
        self.time = time
        self.value = value
    }
}
