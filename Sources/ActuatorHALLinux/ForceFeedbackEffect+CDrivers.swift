import ActuatorHAL
import CDrivers

extension ForceFeedbackEffect {
    /// The effect as the C shim carries `struct ff_effect`; nil for `type` 0 (no effect, as
    /// `UI_BEGIN_FF_UPLOAD` gives for "replaces nothing").
    init?(_ raw: hb_ff_effect) {
        let envelope = Envelope(attackLength: raw.envelope.attack_length, attackLevel: raw.envelope.attack_level,
                                fadeLength: raw.envelope.fade_length, fadeLevel: raw.envelope.fade_level)
        let kind: Kind
        switch ForceFeedbackEffectType(rawValue: raw.type) {
        case .rumble: kind = .rumble(strong: raw.strong_magnitude, weak: raw.weak_magnitude)
        case .periodic:
            kind = .periodic(Periodic(waveform: ForceFeedbackWaveform(rawValue: raw.waveform), period: raw.period, magnitude: raw.magnitude,
                                      offset: raw.offset, phase: raw.phase, envelope: envelope))
        case .constant: kind = .constant(level: raw.level, envelope: envelope)
        case .ramp: kind = .ramp(start: raw.start_level, end: raw.end_level, envelope: envelope)
        default:
            guard raw.type != 0 else { return nil }
            kind = .other(ForceFeedbackEffectType(rawValue: raw.type))
        }
        self.init(id: raw.id, kind: kind, direction: raw.direction, triggerButton: raw.trigger_button, triggerInterval: raw.trigger_interval,
                  length: raw.length, delay: raw.delay)
    }

    /// The effect for the C shim.
    var raw: hb_ff_effect {
        var raw = hb_ff_effect()
        raw.type = type.rawValue
        raw.id = id
        raw.direction = direction
        raw.trigger_button = triggerButton
        raw.trigger_interval = triggerInterval
        raw.length = length
        raw.delay = delay
        switch kind {
        case .rumble(let strong, let weak):
            raw.strong_magnitude = strong
            raw.weak_magnitude = weak
        case .periodic(let periodic):
            raw.waveform = periodic.waveform.rawValue
            raw.period = periodic.period
            raw.magnitude = periodic.magnitude
            raw.offset = periodic.offset
            raw.phase = periodic.phase
        case .constant(let level, _):
            raw.level = level
        case .ramp(let start, let end, _):
            raw.start_level = start
            raw.end_level = end
        case .other:
            break
        }
        if let envelope {
            raw.envelope = hb_ff_envelope(attack_length: envelope.attackLength, attack_level: envelope.attackLevel,
                                          fade_length: envelope.fadeLength, fade_level: envelope.fadeLevel)
        }
        return raw
    }
}

extension ForceFeedbackCapabilities {
    /// The capabilities in the C shim's bits (bit i = code 0x50 + i).
    var bits: UInt64 {
        var bits: UInt64 = 0
        let codes = effectTypes.map(\.rawValue) + waveforms.map(\.rawValue)
            + (supportsGain ? [ForceFeedbackCode.gain] : []) + (supportsAutocenter ? [ForceFeedbackCode.autocenter] : [])
        for code in codes where code >= UInt16(HB_FF_BITS_BASE) && code < UInt16(HB_FF_BITS_BASE) + 64 {
            bits |= 1 << UInt64(code - UInt16(HB_FF_BITS_BASE))
        }
        return bits
    }

    /// The capabilities an input device reports.
    init(bits: UInt64, effectSlots: Int) {
        func has(_ code: UInt16) -> Bool { code >= UInt16(HB_FF_BITS_BASE) && bits & (1 << UInt64(code - UInt16(HB_FF_BITS_BASE))) != 0 }
        self.init(
            effectTypes: Set(ForceFeedbackEffectType.validCodes.filter(has).map(ForceFeedbackEffectType.init(rawValue:))),
            waveforms: Set(ForceFeedbackWaveform.validCodes.filter(has).map(ForceFeedbackWaveform.init(rawValue:))),
            supportsGain: has(ForceFeedbackCode.gain), supportsAutocenter: has(ForceFeedbackCode.autocenter), effectSlots: effectSlots
        )
    }
}
