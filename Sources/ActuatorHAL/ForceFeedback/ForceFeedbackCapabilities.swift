/// What a force-feedback device accepts: its effect types and periodic waveforms (`EVIOCGBIT(EV_FF)`),
/// whether it takes a gain, and how many effects it holds at once (`EVIOCGEFFECTS`, uinput's
/// `ff_effects_max`).
public struct ForceFeedbackCapabilities: Sendable, Hashable {
    public var effectTypes: Set<ForceFeedbackEffectType>
    public var waveforms: Set<ForceFeedbackWaveform>
    /// `FF_GAIN`.
    public var supportsGain: Bool
    /// `FF_AUTOCENTER`.
    public var supportsAutocenter: Bool
    /// Effects the device holds at once.
    public var effectSlots: Int

    public init(effectTypes: Set<ForceFeedbackEffectType>, waveforms: Set<ForceFeedbackWaveform>, supportsGain: Bool, supportsAutocenter: Bool = false, effectSlots: Int) {
        self.effectTypes = effectTypes
        self.waveforms = waveforms
        self.supportsGain = supportsGain
        self.supportsAutocenter = supportsAutocenter
        self.effectSlots = effectSlots
    }

    /// What a hapticboard force-feedback device offers: rumble, the five periodic waveforms,
    /// constant, ramp and gain, with `effectSlots` slots (16 by default, as many pads have).
    public static func hapticboard(effectSlots: Int = 16) -> Self {
        Self(effectTypes: Set(ForceFeedbackEffectType.played), waveforms: Set(ForceFeedbackWaveform.played), supportsGain: true, effectSlots: effectSlots)
    }

    /// The kernel's names of everything offered, in code order (`FF_RUMBLE FF_PERIODIC … FF_GAIN`).
    public var names: [String] {
        effectTypes.sorted().map(\.description) + waveforms.sorted().map(\.description)
            + (supportsGain ? ["FF_GAIN"] : []) + (supportsAutocenter ? ["FF_AUTOCENTER"] : [])
    }
}
