/// An effect type code of Linux input force feedback (`FF_RUMBLE`, `FF_PERIODIC`, … in
/// `linux/input-event-codes.h`). A value type over the kernel's number, so a code hapticboard does
/// not play (a spring, a type from a newer kernel) can still be carried and refused by name.
public struct ForceFeedbackEffectType: RawRepresentable, Sendable, Hashable, Comparable, CustomStringConvertible {
    public var rawValue: UInt16

    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    public static let rumble = Self(rawValue: 0x50)
    public static let periodic = Self(rawValue: 0x51)
    public static let constant = Self(rawValue: 0x52)
    public static let spring = Self(rawValue: 0x53)
    public static let friction = Self(rawValue: 0x54)
    public static let damper = Self(rawValue: 0x55)
    public static let inertia = Self(rawValue: 0x56)
    public static let ramp = Self(rawValue: 0x57)

    /// `FF_EFFECT_MIN`…`FF_EFFECT_MAX`: the codes that name effect types at all.
    public static let validCodes: ClosedRange<UInt16> = 0x50...0x57

    /// The types hapticboard plays, in kernel order.
    public static let played: [Self] = [.rumble, .periodic, .constant, .ramp]

    private static let names: [UInt16: String] = [
        0x50: "FF_RUMBLE", 0x51: "FF_PERIODIC", 0x52: "FF_CONSTANT", 0x53: "FF_SPRING",
        0x54: "FF_FRICTION", 0x55: "FF_DAMPER", 0x56: "FF_INERTIA", 0x57: "FF_RAMP",
    ]

    /// The kernel's name (`FF_RUMBLE`), or the code in hex.
    public var description: String { Self.names[rawValue] ?? "type 0x" + String(rawValue, radix: 16) }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A waveform code of an `FF_PERIODIC` effect (`FF_SQUARE` … `FF_CUSTOM`).
public struct ForceFeedbackWaveform: RawRepresentable, Sendable, Hashable, Comparable, CustomStringConvertible {
    public var rawValue: UInt16

    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    public static let square = Self(rawValue: 0x58)
    public static let triangle = Self(rawValue: 0x59)
    public static let sine = Self(rawValue: 0x5A)
    public static let sawUp = Self(rawValue: 0x5B)
    public static let sawDown = Self(rawValue: 0x5C)
    /// Samples uploaded by the client; uinput cannot pass them on, so no uinput device plays it.
    public static let custom = Self(rawValue: 0x5D)

    /// `FF_WAVEFORM_MIN`…`FF_WAVEFORM_MAX`.
    public static let validCodes: ClosedRange<UInt16> = 0x58...0x5D

    /// The waveforms hapticboard plays.
    public static let played: [Self] = [.square, .triangle, .sine, .sawUp, .sawDown]

    private static let names: [UInt16: String] = [
        0x58: "FF_SQUARE", 0x59: "FF_TRIANGLE", 0x5A: "FF_SINE", 0x5B: "FF_SAW_UP", 0x5C: "FF_SAW_DOWN", 0x5D: "FF_CUSTOM",
    ]

    public var description: String { Self.names[rawValue] ?? "waveform 0x" + String(rawValue, radix: 16) }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Event codes of force feedback beyond effect ids (`linux/input-event-codes.h`, `linux/uinput.h`).
public enum ForceFeedbackCode {
    /// `EV_FF`: plays (value = repeat count) or stops (value 0) the effect whose id is the code.
    public static let eventType: UInt16 = 0x15
    /// `FF_GAIN`: the code of an `EV_FF` event setting the gain, 0…0xFFFF.
    public static let gain: UInt16 = 0x60
    /// `FF_AUTOCENTER`.
    public static let autocenter: UInt16 = 0x61
    /// `FF_MAX_EFFECTS` (= `FF_GAIN`): effect ids stay below the gain code, so a device holds at most 96.
    public static let maximumEffects = 96
    /// The gain of a device nobody has set one on.
    public static let fullGain: UInt16 = 0xFFFF
    /// Envelope levels are 0…0x7FFF (`struct ff_envelope` in `linux/input.h`); the kernel's drivers
    /// take a larger one as this.
    public static let maximumEnvelopeLevel: UInt16 = 0x7FFF
}
