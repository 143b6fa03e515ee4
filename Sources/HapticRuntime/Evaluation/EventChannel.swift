/// Which parameters and dynamic controls give an event its level, brightness and envelope times.
/// Haptic events use intensity and sharpness; audio events are evaluated on the same scale from
/// volume and brightness so "everything sounding" covers both, and consumers filter by type.
struct EventChannel: Sendable {
    var level: EventParameterID
    var levelControl: DynamicParameterID
    var tone: EventParameterID
    var toneControl: DynamicParameterID
    var attackControl: DynamicParameterID
    var decayControl: DynamicParameterID
    var releaseControl: DynamicParameterID

    static let haptic = EventChannel(
        level: .hapticIntensity, levelControl: .hapticIntensityControl,
        tone: .hapticSharpness, toneControl: .hapticSharpnessControl,
        attackControl: .hapticAttackTimeControl, decayControl: .hapticDecayTimeControl,
        releaseControl: .hapticReleaseTimeControl
    )

    static let audio = EventChannel(
        level: .audioVolume, levelControl: .audioVolumeControl,
        tone: .audioBrightness, toneControl: .audioBrightnessControl,
        attackControl: .audioAttackTimeControl, decayControl: .audioDecayTimeControl,
        releaseControl: .audioReleaseTimeControl
    )

    static func of(_ type: HapticEventType) -> EventChannel {
        switch type {
        case .hapticTransient, .hapticContinuous: .haptic
        case .audioContinuous, .audioCustom: .audio
        }
    }
}

extension HapticEventType {
    /// Whether the event drives an actuator (rather than a loudspeaker).
    public var isHaptic: Bool { self == .hapticTransient || self == .hapticContinuous }
}
