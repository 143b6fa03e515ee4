/// The validation rules of `.haptic` v1, as Meta's validator applies them in its
/// legacy-compatibility mode (Meta Haptics SDK, `HapticData::validate`). Strict mode's extra rule —
/// every frequency breakpoint inside the amplitude envelope's time range — is not one of them:
/// files the design tools exported break it, and the reader clamps such breakpoints with a warning.
public enum HapticClipRule: Sendable, Hashable, CaseIterable {
    /// An amplitude breakpoint's `amplitude` is within 0…1.
    case amplitudeInRange
    /// Amplitude breakpoint times start at 0 or later and never decrease.
    case amplitudeTimesInOrder
    /// An emphasis `amplitude` is within 0…1.
    case emphasisAmplitudeInRange
    /// An emphasis `frequency` is within 0…1.
    case emphasisFrequencyInRange
    /// An emphasis is at least as strong as the breakpoint that carries it.
    case emphasisNotBelowBreakpoint
    /// The amplitude envelope has at least two breakpoints.
    case atLeastTwoAmplitudeBreakpoints
    /// The amplitude envelope's last breakpoint comes after its first: the clip lasts.
    case amplitudeEnvelopeLasts
    /// A frequency breakpoint's `frequency` is within 0…1.
    case frequencyInRange
    /// Frequency breakpoint times start at 0 or later and never decrease.
    case frequencyTimesInOrder

    /// The rule in words, for messages.
    public var text: String {
        switch self {
        case .amplitudeInRange: "an amplitude must be within 0…1"
        case .amplitudeTimesInOrder: "amplitude breakpoint times must start at 0 or later and never decrease"
        case .emphasisAmplitudeInRange: "an emphasis amplitude must be within 0…1"
        case .emphasisFrequencyInRange: "an emphasis frequency must be within 0…1"
        case .emphasisNotBelowBreakpoint: "an emphasis amplitude must be at least its breakpoint's amplitude"
        case .atLeastTwoAmplitudeBreakpoints: "the amplitude envelope needs at least two breakpoints"
        case .amplitudeEnvelopeLasts: "the amplitude envelope's last breakpoint must come after its first (a duration > 0)"
        case .frequencyInRange: "a frequency must be within 0…1"
        case .frequencyTimesInOrder: "frequency breakpoint times must start at 0 or later and never decrease"
        }
    }

    /// `reference` as a message shows it: a count as a whole number, anything else as read.
    func referenceText(_ reference: Double) -> String {
        self == .atLeastTwoAmplitudeBreakpoints ? String(Int(reference)) : AHAPNumberFormat.text(reference)
    }

    /// What a message's reference value is, e.g. "the previous time is".
    var referenceName: String {
        switch self {
        case .amplitudeTimesInOrder, .frequencyTimesInOrder: "the previous time is"
        case .emphasisNotBelowBreakpoint: "the breakpoint's amplitude is"
        case .atLeastTwoAmplitudeBreakpoints: "it has"
        case .amplitudeEnvelopeLasts: "it lasts"
        default: "compared with"
        }
    }
}
