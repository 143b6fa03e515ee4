import ActuatorHAL
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How sharpness reaches an actuator, which depends on whether its drive frequency can change.
///
/// - Fixed frequency (LRA in closed loop locked to resonance, ERM): sharpness cannot change the
///   pitch of the vibration, so it shades strength instead: amplitude = intensity × (0.8 + 0.2 ×
///   sharpness) — a round event (0) plays at 80 %, a sharp one (1) at full drive.
/// - Adjustable frequency (LRA in open loop, audio-driven actuators): amplitude = intensity and
///   sharpness sets the frequency. An LRA only responds near resonance, so it gets f₀ × (0.8 + 0.4 ×
///   sharpness) (±20 %); a wide-band actuator gets 80 Hz × 4^sharpness (80–320 Hz, even steps on a
///   log scale, as pitch is perceived).
/// - PCM drive of a wide-band actuator (voice coil with adjustable frequency) also gains harmonic
///   content with sharpness: the carrier is (sin φ + h₂ sin 2φ + h₃ sin 3φ) / (1 + h₂ + h₃) with
///   h₂ = 0.5 × sharpness and h₃ = 0.25 × sharpness — a sharper edge to each cycle, felt as
///   crispness, with the peak still at the amplitude. LRAs get a pure sine: their resonance filters
///   harmonics out, so they would only waste power.
/// - Transients rendered as amplitude pulses on any actuator last 20 ms − 10 ms × sharpness: sharp
///   taps are short and crisp, round ones longer (the "attack" a fixed-frequency LRA can vary).
public struct SharpnessMapping: Sendable, Hashable {
    /// Used for PCM drive of a fixed-frequency actuator whose resonance is not known: the sim
    /// board's LRA.
    public static let fallbackResonantFrequency = 175.0

    /// The actuator the mapping is for.
    public var capabilities: ActuatorCapabilities

    /// The mapping for an actuator.
    public init(capabilities: ActuatorCapabilities) {
        self.capabilities = capabilities
    }

    /// The amplitude (0…1) that renders `level`.
    public func amplitude(for level: DriveLevel) -> Double {
        let intensity = min(1, max(0, level.intensity))
        guard !capabilities.frequencyAdjustable else { return intensity }
        return intensity * (0.8 + 0.2 * min(1, max(0, level.sharpness)))
    }

    /// The drive frequency for `sharpness`, or nil when the actuator's frequency is fixed.
    public func adjustableFrequency(for sharpness: Double) -> Double? {
        guard capabilities.frequencyAdjustable else { return nil }
        let sharpness = min(1, max(0, sharpness))
        if capabilities.kind == .lra, let resonance = capabilities.resonantFrequency {
            return resonance * (0.8 + 0.4 * sharpness)
        }
        return 80 * pow(4, sharpness)
    }

    /// The sine frequency for PCM drive: sharpness-mapped when adjustable, else the resonance.
    public func pcmFrequency(for sharpness: Double) -> Double {
        adjustableFrequency(for: sharpness) ?? capabilities.resonantFrequency ?? Self.fallbackResonantFrequency
    }

    /// Weights of the second and third harmonics in the PCM carrier (zero except on adjustable
    /// voice coils).
    public func pcmHarmonics(for sharpness: Double) -> (second: Double, third: Double) {
        guard capabilities.kind == .voiceCoil, capabilities.frequencyAdjustable else { return (0, 0) }
        let sharpness = sharpness.isNaN ? 0 : min(1, max(0, sharpness))
        return (0.5 * sharpness, 0.25 * sharpness)
    }

    /// One carrier sample at `phase`, peak 1, with the harmonics for `sharpness`.
    public func pcmCarrier(phase: Double, sharpness: Double) -> Double {
        let (second, third) = pcmHarmonics(for: sharpness)
        return (sin(phase) + second * sin(2 * phase) + third * sin(3 * phase)) / (1 + second + third)
    }

    /// Length of the amplitude pulse that renders a transient.
    public static func pulseLength(sharpness: Double) -> Double {
        0.02 - 0.01 * min(1, max(0, sharpness))
    }
}
