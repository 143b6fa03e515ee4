#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The PCM drive of one transient: a burst at the drive frequency with a shaped attack, ended by
/// a braking half-cycle.
///
/// - Frequency: `SharpnessMapping.pcmFrequency` (resonance for an LRA, sharpness-mapped on a voice coil).
/// - Length: the whole cycles that fit in the pulse length for its sharpness (20 ms round … 10 ms
///   sharp), at least one, so the burst ends at a zero crossing.
/// - Attack: the first cycle rises along a raised cosine, 0.5 (1 − cos(π t / T)), instead of
///   jumping to full drive, which would ring the mass at an uncontrolled phase.
/// - Brake: one half-cycle of opposite polarity (drive 180° out of phase with the motion) at the
///   same amplitude stops the mass in about half a period instead of letting it ring down for
///   several — what makes a tap feel crisp.
struct TransientDrive: Sendable {
    var start: Double
    var amplitude: Double
    var sharpness: Double
    var frequency: Double
    var cycles: Int

    init(_ pulse: Pulse, mapping: SharpnessMapping) {
        start = pulse.time
        amplitude = mapping.amplitude(for: pulse.level)
        sharpness = pulse.level.sharpness
        frequency = max(1, mapping.pcmFrequency(for: pulse.level.sharpness))
        cycles = max(1, Int((pulse.length * frequency + 1e-9).rounded(.down)))
    }

    /// One period of the drive frequency, in seconds.
    var period: Double { 1 / frequency }

    /// When the brake ends.
    var end: Double { start + (Double(cycles) + 0.5) * period }

    /// The drive at `time` (−1…1 before the actuator's amplitude cap).
    func sample(at time: Double, mapping: SharpnessMapping) -> Double {
        let local = time - start
        guard local >= 0, time < end else { return 0 }
        let carrier = mapping.pcmCarrier(phase: 2 * Double.pi * frequency * local, sharpness: sharpness)
        let driveEnd = Double(cycles) * period
        if local >= driveEnd { return -amplitude * carrier }
        let attack = local < period ? 0.5 * (1 - cos(Double.pi * local / period)) : 1
        return amplitude * attack * carrier
    }
}
