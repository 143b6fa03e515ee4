import ActuatorHAL
import XCTest
@testable import HapticRuntime

/// The amplitude renderer skips samples where the content promises the level is unchanged
/// (`StreamCursor.steadyUntil`): every compiled command must be the one sampling every update
/// gives, on every kind of actuator, where the level holds, steps and slopes.
final class SteadyStretchTests: XCTestCase {
    private static let configurations = [
        engineTestLRA,
        DRV2605Configuration(ratings: DRV2605Ratings(kind: .lra, loop: .open, ratedVoltage: 2.0, overdriveVoltage: 2.8, resonantFrequency: 175)),
        DRV2605Configuration(ratings: DRV2605Ratings(kind: .erm, loop: .open, ratedVoltage: 3.0, overdriveVoltage: 3.6)),
    ]

    private func continuous(at time: Double, duration: Double, intensity: Double, sharpness: Double,
                            attack: Double = 0, decay: Double = 0, release: Double = 0, sustained: Bool = true) -> HapticEvent {
        HapticEvent(type: .hapticContinuous, time: time, duration: duration, parameters: [
            EventParameter(.hapticIntensity, intensity), EventParameter(.hapticSharpness, sharpness),
            EventParameter(.attackTime, attack), EventParameter(.decayTime, decay), EventParameter(.releaseTime, release),
            EventParameter(.sustained, sustained ? 1 : 0),
        ])
    }

    private func points(_ pairs: [(Double, Double)]) -> [ControlPoint] { pairs.map { ControlPoint(time: $0.0, value: $0.1) } }

    /// `pattern` compiled with and without skipping on each actuator: the same program, and not an empty one.
    private func assertSkippingChangesNothing(_ pattern: HapticPattern, _ name: String, file: StaticString = #filePath, line: UInt = #line) {
        for configuration in Self.configurations {
            let capabilities = EngineRig(configuration: configuration).actuator.capabilities
            let skipping = PatternCompiler(capabilities: capabilities)
            var sampling = skipping
            sampling.skipsSteadyStretches = false
            let expected = sampling.compile(pattern)
            XCTAssertFalse(expected.commands.isEmpty, "\(name): nothing compiled", file: file, line: line)
            XCTAssertEqual(skipping.compile(pattern), expected, "\(name) on \(configuration.ratings.kind) \(configuration.ratings.loop)", file: file, line: line)
        }
    }

    /// `steadyUntil(after:)` of `value` at every `step` of `times`: the stretch it promises holds
    /// the value bit for bit (checked every tenth of a step), and is as long as `expected` says
    /// where given.
    private func assertSteadyStretchesHold(_ name: String, times: StrideTo<Double>, step: Double,
                                           value: (Double) -> Double, steadyUntil: (Double) -> Double,
                                           expected: [Double: Double], file: StaticString = #filePath, line: UInt = #line) {
        for time in times {
            let until = steadyUntil(time)
            XCTAssertGreaterThanOrEqual(until, time, "\(name) at \(time)", file: file, line: line)
            for later in stride(from: time, to: min(until, time + 10), by: step / 10) where value(later) != value(time) {
                XCTFail("\(name): steady from \(time) until \(until), but \(value(later)) at \(later) against \(value(time))", file: file, line: line)
                break
            }
        }
        for (time, until) in expected {
            XCTAssertEqual(steadyUntil(time), until, accuracy: 1e-12, "\(name) at \(time)", file: file, line: line)
        }
    }

    func testAnEnvelopeIsSteadyOnlyWhereItsGainHolds() {
        let cases: [(EventEnvelope, [Double: Double])] = [
            // Sustained: full between the attack's end and the release's start.
            (EventEnvelope(attack: 0.2, decay: 0.5, release: 0.3, sustained: true, duration: 2), [0.1: 0.1, 0.2: 1.7, 0.9: 1.7, 1.8: 1.8]),
            // Decaying: moving until the decay has brought it to 0, silent after that.
            (EventEnvelope(attack: 0.1, decay: 0.4, release: 0.2, sustained: false, duration: 2), [0.1: 0.1, 0.3: 0.3, 0.6: 2]),
            // No decay: silent right after the attack.
            (EventEnvelope(attack: 0.1, decay: 0, release: 0, sustained: false, duration: 1), [0.1: 0.1, 0.2: 1]),
            (EventEnvelope(attack: 0, decay: 0, release: 0, sustained: true, duration: 1), [0: 1, 0.5: 1]),
            // The release begins before the attack ends: never full.
            (EventEnvelope(attack: 0.3, decay: 0.2, release: 0.5, sustained: true, duration: 0.6), [0.35: 0.35]),
        ]
        for (index, (envelope, expected)) in cases.enumerated() {
            assertSteadyStretchesHold("envelope \(index)", times: stride(from: 0, to: envelope.duration + 0.05, by: 0.005), step: 0.005,
                                      value: envelope.gain(at:), steadyUntil: envelope.steadyUntil(after:), expected: expected)
        }
    }

    func testAControlIsSteadyOnlyWhereItsValueHolds() {
        let timeline = ControlTimeline(
            parameters: [DynamicParameter(.hapticIntensityControl, value: 0.5, time: 3.5), DynamicParameter(.hapticIntensityControl, value: 0.8, time: 0.1)],
            curves: [
                ParameterCurve(.hapticIntensityControl, time: 0.3, controlPoints: points([(0, 0.5), (0.5, 0.5), (1, 1), (1.7, 1), (1.7, 0.2), (2.5, 0.2)])),
                ParameterCurve(.hapticSharpnessControl, time: 1, controlPoints: points([(0.2, 0.1), (0.2, 0.9), (0.6, 0.9), (0.8, -0.4)])),
            ]
        )
        assertSteadyStretchesHold("intensity control", times: stride(from: 0, to: 4, by: 0.01), step: 0.01,
                                  value: { timeline.value(of: .hapticIntensityControl, at: $0) },
                                  steadyUntil: { timeline.steadyUntil(.hapticIntensityControl, after: $0) },
                                  expected: [0: 0.1, 0.2: 0.3, 0.3: 0.8, 0.9: 0.9, 1.4: 2.0, 2.1: 2.8, 2.9: 3.5, 3.6: .infinity])
        assertSteadyStretchesHold("sharpness control", times: stride(from: 0, to: 3, by: 0.01), step: 0.01,
                                  value: { timeline.value(of: .hapticSharpnessControl, at: $0) },
                                  steadyUntil: { timeline.steadyUntil(.hapticSharpnessControl, after: $0) },
                                  // Before the curve: the default until it starts; at its first time its first value,
                                  // which the next point at that time replaces.
                                  expected: [0.5: 1, 1.1: 1.2, 1.2: 1.2, 1.3: 1.6, 1.7: 1.7, 1.9: .infinity])
    }

    /// `straightUntil(after:)` promises a stretch over which the value only rises or only falls:
    /// checked every tenth of a step, across flat and sloped segments, a step at one time, a curve
    /// starting later than its entry, values clamped at the range's ends, and a later parameter.
    func testAControlIsStraightOnlyAlongOneSegment() {
        let timeline = ControlTimeline(
            parameters: [DynamicParameter(.hapticIntensityControl, value: 0.3, time: 3.2)],
            curves: [
                ParameterCurve(.hapticIntensityControl, time: 0.3, controlPoints: points([(0.1, 0.5), (0.5, 0.5), (1, 1), (1.7, 1), (1.7, 0.2), (2.5, 1.4), (2.6, -0.5)])),
            ]
        )
        let value = { (time: Double) in timeline.value(of: .hapticIntensityControl, at: time) }
        for time in stride(from: 0.0, to: 4, by: 0.01) {
            let until = timeline.straightUntil(.hapticIntensityControl, after: time)
            XCTAssertGreaterThanOrEqual(until, time)
            var (rises, falls) = (false, false)
            var before = value(time)
            for later in stride(from: time, to: min(until, time + 5), by: 0.001) {
                let now = value(later)
                rises = rises || now > before
                falls = falls || now < before
                before = now
            }
            XCTAssertFalse(rises && falls, "straight from \(time) until \(until), but the value rises and falls")
        }
        let expected: [Double: Double] = [0: 0.3, 0.3: 0.4, 0.5: 0.8, 1.0: 1.3, 1.6: 2.0, 2.0: 2.8, 2.1: 2.8, 2.85: 2.9, 3.0: 3.2, 3.5: .infinity]
        for (time, until) in expected {
            XCTAssertEqual(timeline.straightUntil(.hapticIntensityControl, after: time), until, accuracy: 1e-12, "at \(time)")
        }
    }

    func testAHeldLevelIsSampledTheSameWithoutItsSteadySamples() {
        // A held rumble as a force-feedback upload plans one (one event, a flat intensity curve), 25 s long.
        assertSkippingChangesNothing(HapticPattern(
            events: [continuous(at: 0, duration: 25, intensity: 1, sharpness: 0.5)],
            parameterCurves: [ParameterCurve(.hapticIntensityControl, time: 0, controlPoints: points([(0, 0.7), (25, 0.7)]))]
        ), "a held rumble")
    }

    func testEnvelopesStepsAndSlopesAreSampledTheSame() {
        assertSkippingChangesNothing(HapticPattern(
            events: [continuous(at: 0.1, duration: 5, intensity: 0.8, sharpness: 0.3, attack: 0.2, release: 0.3)],
            parameters: [
                DynamicParameter(.hapticSharpnessControl, value: 0.4, time: 1),
                DynamicParameter(.hapticSharpnessControl, value: -0.2, time: 2.0005),
                DynamicParameter(.hapticIntensityControl, value: 0.5, time: 3.5),
            ],
            parameterCurves: [
                // Flat, sloped, a step at one time (two points at 2 s), flat again, held after the last point.
                ParameterCurve(.hapticIntensityControl, time: 0.3, controlPoints: points([(0, 0.5), (0.5, 0.5), (1, 1), (1.7, 1), (1.7, 0.2), (2.5, 0.2)])),
                // Starts with two points at one time: its value at that time is the first's.
                ParameterCurve(.hapticSharpnessControl, time: 4, controlPoints: points([(0.2, 0.1), (0.2, 0.9), (0.6, 0.9)])),
            ]
        ), "sustained with attack, release, parameters and curves")
    }

    func testDecaysOverlapsAndTransientsAreSampledTheSame() {
        assertSkippingChangesNothing(HapticPattern(
            events: [
                continuous(at: 0, duration: 3, intensity: 0.9, sharpness: 0.6, attack: 0.05, decay: 0.5, sustained: false),
                continuous(at: 0.4, duration: 2, intensity: 0.6, sharpness: 0.2, decay: 0, release: 0.4, sustained: false),
                continuous(at: 1, duration: 1.5, intensity: 0.5, sharpness: 0.9, release: 0.25),
                HapticEvent(type: .hapticTransient, time: 1.2, parameters: [EventParameter(.hapticIntensity, 1), EventParameter(.hapticSharpness, 0.5)]),
                HapticEvent(type: .hapticTransient, time: 2.9, parameters: [EventParameter(.hapticIntensity, 0.4), EventParameter(.hapticSharpness, 1)]),
            ],
            parameterCurves: [ParameterCurve(.hapticIntensityControl, time: 1.9, controlPoints: points([(0, 1), (0.3, 0.4)]))]
        ), "decaying and overlapping events with transients")
    }

    func testAnEventAtAnOddTimeAndRateIsSampledTheSame() {
        // Span starts off the millisecond grid, so sample times carry rounding of their own.
        assertSkippingChangesNothing(HapticPattern(
            events: [continuous(at: 0.123_456_7, duration: 2.000_000_3, intensity: 0.55, sharpness: 0.45, attack: 0.010_000_1, release: 0.333_333_3)],
            parameters: [DynamicParameter(.hapticIntensityControl, value: 0.25, time: 1.123_456_7 + 0.000_000_1)]
        ), "odd times")
    }

    /// Long ramps and slow waves, where the renderer skips ahead to each amplitude change instead
    /// of sampling every update: a single event on one curve, rising and falling, clamped, beside a
    /// moving sharpness (not straight), and overlapped by a second event part of the time.
    func testLongStraightStretchesAreSampledTheSame() {
        let wave = (0...160).map { ControlPoint(time: Double($0) * 0.125, value: 0.5 + 0.5 * sin(Double($0) * .pi / 16)) }
        assertSkippingChangesNothing(HapticPattern(
            events: [continuous(at: 0.5, duration: 65, intensity: 1, sharpness: 0.4)],
            parameterCurves: [ParameterCurve(.hapticIntensityControl, time: 0.5, controlPoints: points([(0, 0), (60, 1), (60.0005, 0.3), (64, 0.0001)]))]
        ), "a 65 s ramp up, a step, a ramp down")
        assertSkippingChangesNothing(HapticPattern(
            events: [continuous(at: 0, duration: 20, intensity: 0.8, sharpness: 0.7, attack: 0.5, release: 1)],
            parameterCurves: [ParameterCurve(.hapticIntensityControl, time: 0, controlPoints: wave)]
        ), "a slow wave of 4 s periods with attack and release")
        assertSkippingChangesNothing(HapticPattern(
            events: [continuous(at: 0, duration: 10, intensity: 1, sharpness: 0.5), continuous(at: 3, duration: 2, intensity: 0.3, sharpness: 1)],
            parameterCurves: [
                ParameterCurve(.hapticIntensityControl, time: 0, controlPoints: points([(0, 1.5), (4, 0.5), (9, -0.2)])),
                ParameterCurve(.hapticSharpnessControl, time: 6, controlPoints: points([(0, 0), (2, 1)])),
            ]
        ), "clamped ends, an overlapping event, a moving sharpness")
    }

    /// Force-feedback effects of the longest length the kernel allows (65.535 s), as a game
    /// uploads them: ramps, attacks and fades, slow and followed waves, on every actuator.
    func testLongForceFeedbackEffectsAreSampledTheSame() {
        let envelope = ForceFeedbackEffect.Envelope(attackLength: 20_000, attackLevel: 0, fadeLength: 30_000, fadeLevel: 0x1000)
        let effects: [(String, ForceFeedbackEffect)] = [
            ("ramp", ForceFeedbackEffect(id: -1, kind: .ramp(start: -0x7FFF, end: 0x6000, envelope: envelope), direction: 0, triggerButton: 0, triggerInterval: 0, length: 65_535, delay: 0)),
            ("constant", ForceFeedbackEffect(id: -1, kind: .constant(level: 0x5000, envelope: envelope), direction: 0, triggerButton: 0, triggerInterval: 0, length: 65_535, delay: 100)),
            ("slow triangle", ForceFeedbackEffect(id: -1, kind: .periodic(.init(waveform: .triangle, period: 9_000, magnitude: 0x7000, offset: 0x800, phase: 0x4000, envelope: envelope)),
                                                  direction: 0, triggerButton: 0, triggerInterval: 0, length: 65_535, delay: 0)),
            ("followed sine", ForceFeedbackEffect(id: -1, kind: .periodic(.init(waveform: .sine, period: 300, magnitude: -0x7FFF, offset: 0, phase: 0, envelope: .none)),
                                                  direction: 0, triggerButton: 0, triggerInterval: 0, length: 10_000, delay: 0)),
        ]
        for configuration in Self.configurations {
            let capabilities = EngineRig(configuration: configuration).actuator.capabilities
            for (name, effect) in effects {
                let plan = ForceFeedbackPlan.plans(for: effect, layout: ForceFeedbackLayout(strong: "main", weak: nil), gain: 0.9,
                                                   capabilities: ["main": capabilities], updateRates: ["main": 1000])["main"]
                guard let pattern = plan?.pattern else { return XCTFail("\(name): no plan") }
                let skipping = PatternCompiler(capabilities: capabilities)
                var sampling = skipping
                sampling.skipsSteadyStretches = false
                XCTAssertEqual(skipping.compile(pattern), sampling.compile(pattern), "\(name) on \(configuration.ratings.kind) \(configuration.ratings.loop)")
            }
        }
    }
}
