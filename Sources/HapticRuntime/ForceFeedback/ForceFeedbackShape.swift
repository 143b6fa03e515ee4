import ActuatorHAL
import FoundationEssentials
import Glibc

/// An effect's level over one repetition as an actuator plays it, 0…1, before the gain: the
/// mapping from Linux force feedback to hapticboard drive, written down in docs/force-feedback.md.
///
/// - `FF_RUMBLE`: the strong magnitude on the strong actuator, the weak one on the weak actuator;
///   on a board with one actuator the larger of the two (ff-memless's single-motor drivers pick
///   one; a sum would saturate on every rumble that uses both).
/// - `FF_CONSTANT`: |level|; `FF_RAMP`: |level| moving linearly from start to end.
/// - `FF_PERIODIC`: the actuator vibrates at its own frequency (an LRA in closed loop cannot do
///   otherwise), so the waveform becomes the vibration's strength over time, swinging between
///   offset and offset + |magnitude| as the wave goes from trough to crest: offset + |magnitude| ×
///   (1 + wave(t)) / 2, clamped to 0…1 (a negative magnitude turns the wave upside down). The
///   rhythm the designer chose survives: a square pulses on and off, a sine swells and fades, a
///   saw ramps up (or down) once per period. That holds when the period is at least
///   `shortestFollowedPeriod`, slow enough for the actuator to follow; a shorter period (a "buzz"
///   near or above resonance) plays as a steady vibration of |magnitude| — the rule ff-memless
///   applies to every periodic effect, offset left out.
/// - Envelopes act on the level as in ff-memless: from `attack_level` to it over `attack_length`,
///   and to `fade_level` over the last `fade_length` (never for an endless effect).
/// - Direction (effects other than rumble, boards with two actuators): the left actuator plays
///   min(1, 1 + sin θ), the right one min(1, 1 − sin θ) of the level, θ = direction / 0x10000 ×
///   360° (0x4000 is left): an effect from the left plays on the left actuator only, one from
///   below or above on both at full strength.
struct ForceFeedbackShape {
    /// The part of a two-actuator layout an actuator plays.
    enum Role { case only, strong, weak }

    let effect: ForceFeedbackEffect
    let role: Role
    /// The shortest period played as a changing strength, in seconds.
    let shortestFollowedPeriod: Double

    /// How many points a followed period is sampled at.
    static let pointsPerPeriod = 32
    /// The spacing of samples of attacks, fades and ramps.
    static let rampStep = 0.010

    /// The shortest period an actuator follows as a changing strength: four cycles of an LRA's
    /// resonance (about its rise time), 40 ms for an ERM (its spin-up), and never less than eight
    /// amplitude updates.
    static func shortestFollowedPeriod(capabilities: ActuatorCapabilities, updateRate: Double) -> Double {
        let mechanical = capabilities.resonantFrequency.map { 4 / $0 } ?? 0.040
        return max(mechanical, 8 / max(1, updateRate))
    }

    private static func level(_ value: Int16) -> Double { min(1, abs(Double(value)) / 0x7FFF) }
    /// An envelope level: 0…0x7FFF, anything above taken as 0x7FFF, as ff-memless and hid-pidff do.
    private static func level(_ value: UInt16) -> Double { Double(min(value, ForceFeedbackCode.maximumEnvelopeLevel)) / 0x7FFF }

    var length: Double { Double(effect.length) / 1000 }
    var isEndless: Bool { effect.length == 0 }

    /// The share of the level this actuator plays.
    var weight: Double {
        switch effect.kind {
        case .rumble(let strong, let weak):
            let strong = Double(strong) / 0xFFFF, weak = Double(weak) / 0xFFFF
            switch role {
            case .only: return max(strong, weak)
            case .strong: return strong
            case .weak: return weak
            }
        default:
            guard role != .only else { return 1 }
            let sine = sin(Double(effect.direction) / 65536 * 2 * .pi)
            return min(1, max(0, role == .strong ? 1 + sine : 1 - sine))
        }
    }

    /// Whether a periodic effect is followed as a changing strength.
    var followsWave: Bool {
        guard case .periodic(let periodic) = effect.kind else { return false }
        return periodic.period > 0 && Double(periodic.period) / 1000 >= shortestFollowedPeriod
    }

    /// The level at `t` seconds into a repetition (after its delay), 0…1.
    func value(at t: Double) -> Double {
        let share = weight
        guard share > 0 else { return 0 }
        switch effect.kind {
        case .rumble:
            return share
        case .constant(let level, let envelope):
            return share * enveloped(Self.level(level), envelope, at: t)
        case .ramp(let start, let end, let envelope):
            let progress = isEndless || length == 0 ? 0 : min(1, max(0, t / length))
            let level = (Double(start) + (Double(end) - Double(start)) * progress) / 0x7FFF
            return share * enveloped(min(1, abs(level)), envelope, at: t)
        case .periodic(let periodic):
            let magnitude = enveloped(Self.level(periodic.magnitude), periodic.envelope, at: t)
            guard followsWave else { return share * magnitude }
            let cycle = t / (Double(periodic.period) / 1000) + Double(periodic.phase) / 65536
            let wave = Self.wave(periodic.waveform, at: cycle - cycle.rounded(.down))
            let crest = (1 + (periodic.magnitude < 0 ? -wave : wave)) / 2
            return share * min(1, max(0, Double(periodic.offset) / 0x7FFF + magnitude * crest))
        case .other:
            return 0
        }
    }

    /// One cycle of `waveform` at `x` (0…1), −1…1.
    static func wave(_ waveform: ForceFeedbackWaveform, at x: Double) -> Double {
        switch waveform {
        case .square: return x < 0.5 ? 1 : -1
        case .triangle: return x < 0.25 ? 4 * x : x < 0.75 ? 2 - 4 * x : 4 * x - 4
        case .sawUp: return 2 * x - 1
        case .sawDown: return 1 - 2 * x
        default: return sin(2 * .pi * x)
        }
    }

    /// `level` under `envelope` at `t` (ff-memless's `apply_envelope`).
    private func enveloped(_ level: Double, _ envelope: ForceFeedbackEffect.Envelope, at t: Double) -> Double {
        let attack = Double(envelope.attackLength) / 1000
        let fade = Double(envelope.fadeLength) / 1000
        if attack > 0, t < attack {
            let from = Self.level(envelope.attackLevel)
            return from + (level - from) * max(0, t) / attack
        }
        if fade > 0, !isEndless, t >= length - fade, t <= length {
            let to = Self.level(envelope.fadeLevel)
            return to + (level - to) * (length - t) / fade
        }
        return level
    }

    /// The times to sample over `0...horizon` so that straight lines between the samples follow
    /// the level: the corners of the envelope, every `rampStep` where the level bends, and
    /// `pointsPerPeriod` per followed period.
    func sampleTimes(through horizon: Double) -> [Double] {
        var times: [Double] = [0]
        let step: Double?
        if case .periodic(let periodic) = effect.kind, followsWave {
            step = Double(periodic.period) / 1000 / Double(Self.pointsPerPeriod)
        } else if case .ramp = effect.kind {
            step = max(Self.rampStep, horizon / 256)
        } else {
            step = nil
        }
        if let step, step > 0 {
            var t = step
            while t < horizon {
                times.append(t)
                t += step
            }
        }
        times.append(horizon)
        if let envelope = effect.envelope {
            let attack = min(horizon, Double(envelope.attackLength) / 1000)
            let fadeStart = isEndless ? horizon : max(0, length - Double(envelope.fadeLength) / 1000)
            // Elsewhere attacks and fades are straight lines between these corners.
            times.append(contentsOf: [attack, fadeStart].filter { $0 > 0 && $0 < horizon })
        }
        // In order already but for the corners at the end, which the (run-detecting) sort merges
        // in; a game waits in EVIOCSFF for this, and a set of every sample was sorted in full.
        times.sort()
        var kept = 0
        for index in times.indices where kept == 0 || times[index] != times[kept - 1] {
            times[kept] = times[index]
            kept += 1
        }
        times.removeLast(times.count - kept)
        return times
    }
}
