/// One force-feedback effect as Linux describes it (`struct ff_effect` in `linux/input.h`): what a
/// client uploads with `EVIOCSFF` and a uinput device's owner receives with `UI_BEGIN_FF_UPLOAD`.
/// Durations are milliseconds, levels the kernel's integers, exactly as on the wire.
public struct ForceFeedbackEffect: Sendable, Hashable {
    /// `struct ff_envelope`: the level rises from `attackLevel` to the effect's own over
    /// `attackLength` ms, and falls to `fadeLevel` over the last `fadeLength` ms. Levels are
    /// absolute, 0…0x7FFF.
    public struct Envelope: Sendable, Hashable {
        public var attackLength: UInt16
        public var attackLevel: UInt16
        public var fadeLength: UInt16
        public var fadeLevel: UInt16

        public init(attackLength: UInt16 = 0, attackLevel: UInt16 = 0, fadeLength: UInt16 = 0, fadeLevel: UInt16 = 0) {
            self.attackLength = attackLength
            self.attackLevel = attackLevel
            self.fadeLength = fadeLength
            self.fadeLevel = fadeLevel
        }

        /// No envelope: the effect plays at its own level throughout.
        public static let none = Envelope()
    }

    /// `struct ff_periodic_effect` (without custom samples, which uinput cannot carry).
    public struct Periodic: Sendable, Hashable {
        public var waveform: ForceFeedbackWaveform
        /// Milliseconds per cycle.
        public var period: UInt16
        /// Peak level, −0x7FFF…0x7FFF.
        public var magnitude: Int16
        /// Mean level the wave swings around.
        public var offset: Int16
        /// Where in the cycle it starts, in 1/65536 of a period.
        public var phase: UInt16
        public var envelope: Envelope

        public init(waveform: ForceFeedbackWaveform, period: UInt16, magnitude: Int16, offset: Int16 = 0, phase: UInt16 = 0, envelope: Envelope = .none) {
            self.waveform = waveform
            self.period = period
            self.magnitude = magnitude
            self.offset = offset
            self.phase = phase
            self.envelope = envelope
        }
    }

    /// What the effect does.
    public enum Kind: Sendable, Hashable {
        /// `FF_RUMBLE`: the strong (large, low) and weak (small, high) motor magnitudes, 0…0xFFFF.
        case rumble(strong: UInt16, weak: UInt16)
        case periodic(Periodic)
        /// `FF_CONSTANT`: a level, −0x7FFF…0x7FFF.
        case constant(level: Int16, envelope: Envelope)
        /// `FF_RAMP`: a level moving from `start` to `end` over the effect's length.
        case ramp(start: Int16, end: Int16, envelope: Envelope)
        /// Any other type (`FF_SPRING`, `FF_DAMPER`, …): carried so it can be refused by name.
        case other(ForceFeedbackEffectType)
    }

    /// The slot: −1 asks the kernel for a free one; a slot's id replaces the effect there.
    public var id: Int16
    public var kind: Kind
    /// 0x0000 down, 0x4000 left, 0x8000 up, 0xC000 right (the direction the effect comes from).
    public var direction: UInt16
    /// `trigger.button`: a button that starts the effect; 0 for none.
    public var triggerButton: UInt16
    /// `trigger.interval`: milliseconds before the trigger may fire again.
    public var triggerInterval: UInt16
    /// `replay.length` in ms; 0 plays until stopped.
    public var length: UInt16
    /// `replay.delay` in ms, before each repetition.
    public var delay: UInt16

    public init(id: Int16 = -1, kind: Kind, direction: UInt16 = 0, triggerButton: UInt16 = 0, triggerInterval: UInt16 = 0, length: UInt16, delay: UInt16 = 0) {
        self.id = id
        self.kind = kind
        self.direction = direction
        self.triggerButton = triggerButton
        self.triggerInterval = triggerInterval
        self.length = length
        self.delay = delay
    }

    /// The effect's type code.
    public var type: ForceFeedbackEffectType {
        switch kind {
        case .rumble: .rumble
        case .periodic: .periodic
        case .constant: .constant
        case .ramp: .ramp
        case .other(let type): type
        }
    }

    /// The periodic waveform, for an `FF_PERIODIC` effect.
    public var waveform: ForceFeedbackWaveform? {
        if case .periodic(let periodic) = kind { return periodic.waveform }
        return nil
    }

    /// The envelope, for the types that have one.
    public var envelope: Envelope? {
        switch kind {
        case .periodic(let periodic): periodic.envelope
        case .constant(_, let envelope), .ramp(_, _, let envelope): envelope
        case .rumble, .other: nil
        }
    }
}
