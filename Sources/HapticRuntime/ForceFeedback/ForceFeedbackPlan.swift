import ActuatorHAL
import FoundationEssentials
import Glibc

/// What one actuator plays for a force-feedback effect: one repetition as a pattern — the
/// effect's delay, then a HapticContinuous event whose HapticIntensityControl curve is the
/// effect's level (`ForceFeedbackShape`) times the gain, at the sharpness that drives the
/// actuator at its own resonance with full strength.
public struct ForceFeedbackPlan: Sendable, Hashable {
    /// One repetition.
    public var pattern: HapticPattern
    /// Seconds per repetition (delay + length); nil for an endless effect (length 0).
    public var repetition: Double?
    /// For an endless effect, the part of `pattern` played again and again once the delay and the
    /// attack are over; nil otherwise.
    public var loop: Range<Double>?
    /// Whether the actuator has nothing to play (a rumble's silent motor, the far side of a
    /// directional effect, gain 0).
    public var isSilent: Bool { pattern.events.isEmpty }

    /// How much of an endless effect's steady part is rendered and looped: one second, or a
    /// whole number of followed periods just over it.
    static let endlessChunk = 1.0

    /// The plan for each actuator of `layout`.
    /// - Parameters:
    ///   - capabilities: each actuator's, by name (its resonance decides the followed periods).
    ///   - updateRates: each actuator's amplitude update rate in hertz, by name.
    ///   - gain: `FF_GAIN` / 0xFFFF.
    static func plans(for effect: ForceFeedbackEffect, layout: ForceFeedbackLayout, gain: Double,
                      capabilities: [String: ActuatorCapabilities], updateRates: [String: Double]) -> [String: ForceFeedbackPlan] {
        var plans: [String: ForceFeedbackPlan] = [:]
        for actuator in layout.actuators {
            let role: ForceFeedbackShape.Role = layout.weak == nil ? .only : actuator == layout.strong ? .strong : .weak
            let capability = capabilities[actuator]
            let shortest = capability.map { ForceFeedbackShape.shortestFollowedPeriod(capabilities: $0, updateRate: updateRates[actuator] ?? 1000) } ?? 0.040
            let shape = ForceFeedbackShape(effect: effect, role: role, shortestFollowedPeriod: shortest)
            plans[actuator] = plan(shape, gain: gain, sharpness: capability.map(Self.sharpness(drivingAtResonance:)) ?? 1, updateRate: updateRates[actuator] ?? 1000)
        }
        return plans
    }

    /// The sharpness that plays an actuator at full strength at its own frequency (see
    /// `SharpnessMapping`): 1 where the frequency is fixed (sharpness only shades strength there),
    /// 0.5 on an open-loop LRA (f₀ × 1.0), and on a wide-band actuator the sharpness whose
    /// 80 Hz × 4^sharpness is its resonance (160 Hz when it has none).
    static func sharpness(drivingAtResonance capabilities: ActuatorCapabilities) -> Double {
        guard capabilities.frequencyAdjustable else { return 1 }
        if capabilities.kind == .lra { return 0.5 }
        guard let resonance = capabilities.resonantFrequency else { return 0.5 }
        return min(1, max(0, log(resonance / 80) / log(4)))
    }

    private static func plan(_ shape: ForceFeedbackShape, gain: Double, sharpness: Double, updateRate: Double) -> ForceFeedbackPlan {
        let effect = shape.effect
        let delay = Double(effect.delay) / 1000
        var loop: Range<Double>?
        var horizon = shape.length
        var repetition: Double? = delay + shape.length
        if shape.isEndless {
            let attack = Double(effect.envelope?.attackLength ?? 0) / 1000
            var chunk = endlessChunk
            if case .periodic(let periodic) = effect.kind, shape.followsWave {
                let period = Double(periodic.period) / 1000
                chunk = (endlessChunk / period).rounded(.up) * period
            }
            loop = (delay + attack)..<(delay + attack + chunk)
            // Rendered a chunk beyond the loop's end, so no pass reaches the event's end (its brake).
            horizon = attack + 2 * chunk
            repetition = nil
        }
        let points = shape.sampleTimes(through: horizon).map { time in
            ControlPoint(time: time, value: ((shape.value(at: time) * gain) * 10_000).rounded() / 10_000)
        }
        // A finite effect's drive ends (brake, then zero) two updates before its length is up, so
        // a repetition is silent again when the next one starts from its delay.
        let duration = shape.isEndless ? horizon : max(horizon / 2, horizon - 2 / max(1, updateRate))
        var pattern = HapticPattern(metadata: ["Source": "Linux force feedback \(effect.type)"])
        if horizon > 0, points.contains(where: { $0.value > 0 }) {
            pattern.events = [HapticEvent(type: .hapticContinuous, time: delay, duration: duration, parameters: [
                EventParameter(.hapticIntensity, 1), EventParameter(.hapticSharpness, sharpness),
            ])]
            pattern.parameterCurves = [ParameterCurve(.hapticIntensityControl, time: delay, controlPoints: points)]
        }
        return ForceFeedbackPlan(pattern: pattern, repetition: repetition, loop: loop)
    }
}
