import ActuatorHAL
import XCTest
@testable import HapticRuntime

final class ForceFeedbackPlanTests: XCTestCase {
    private let lra = ActuatorCapabilities(
        kind: .lra, romLibrary: nil, supportsRealtimeAmplitude: true, supportsSignedAmplitude: true, supportsPCM: false,
        resonantFrequency: 175, frequencyAdjustable: false, amplitudeUpdateCost: .microseconds(73), maximumContinuousDrive: nil
    )
    private let layout = ForceFeedbackLayout(strong: "main", weak: nil)

    private func curve(_ effect: ForceFeedbackEffect, gain: Double = 1) throws -> [ControlPoint] {
        let plan = try XCTUnwrap(ForceFeedbackPlan.plans(for: effect, layout: layout, gain: gain, capabilities: ["main": lra], updateRates: ["main": 1000])["main"])
        return try XCTUnwrap(plan.pattern.parameterCurves.first).controlPoints
    }

    func testAPeriodNearResonancePlaysSteadyAtItsMagnitude() throws {
        // 5 ms (200 Hz) is far below the 22.9 ms (four cycles of 175 Hz) an LRA can follow.
        let points = try curve(TestEffects.periodic(.sine, period: 5, magnitude: 0x4000, length: 1000))
        XCTAssertEqual(Set(points.map(\.value)), [0.5])
    }

    func testASlowSquarePulsesOnAndOff() throws {
        let points = try curve(TestEffects.periodic(.square, period: 200, length: 400))
        let value = { (t: Double) in points.last { $0.time <= t + 1e-9 }?.value ?? -1 }
        XCTAssertEqual([value(0.05), value(0.15), value(0.25), value(0.35)], [1, 0, 1, 0])
    }

    func testASlowSawUpRampsOncePerPeriod() throws {
        let points = try curve(TestEffects.periodic(.sawUp, period: 100, length: 200))
        let value = { (t: Double) in points.last { $0.time <= t + 1e-9 }?.value ?? -1 }
        XCTAssertEqual(value(0), 0, accuracy: 0.01)
        XCTAssertEqual(value(0.05), 0.5, accuracy: 0.05)
        XCTAssertEqual(value(0.0969), 0.97, accuracy: 0.05)
        XCTAssertEqual(value(0.1), 0, accuracy: 0.01)
    }

    func testEnvelopeAndGainShapeAConstant() throws {
        let envelope = ForceFeedbackEffect.Envelope(attackLength: 100, attackLevel: 0, fadeLength: 100, fadeLevel: 0x2000)
        let points = try curve(TestEffects.constant(-0x7FFF, length: 1000, envelope: envelope), gain: 0.5)
        let value = { (t: Double) in points.first { abs($0.time - t) < 1e-9 }?.value }
        XCTAssertEqual(value(0), 0)
        XCTAssertEqual(value(0.1), 0.5)
        XCTAssertEqual(try XCTUnwrap(value(1)), 0.125, accuracy: 0.001)
    }

    func testRampMovesBetweenItsLevels() throws {
        let ramp = ForceFeedbackEffect(kind: .ramp(start: 0, end: 0x7FFF, envelope: .none), length: 1000)
        let points = try curve(ramp)
        XCTAssertEqual(points.first?.value, 0)
        XCTAssertEqual(points.last?.value, 1)
        XCTAssertEqual(try XCTUnwrap(points.first { abs($0.time - 0.5) < 0.006 }).value, 0.5, accuracy: 0.01)
    }

    /// The times a shape is sampled at ascend, each once, from 0 to the horizon, through the
    /// envelope's corners and the wave's or ramp's steps, whether a corner falls between two
    /// steps or on one, and where the attack ends as the fade begins.
    func testSampleTimesAscendOnceEachThroughTheCorners() {
        let between = ForceFeedbackEffect.Envelope(attackLength: 37, attackLevel: 0, fadeLength: 101, fadeLevel: 0)
        let onSteps = ForceFeedbackEffect.Envelope(attackLength: 100, attackLevel: 0, fadeLength: 200, fadeLevel: 0)
        let meeting = ForceFeedbackEffect.Envelope(attackLength: 500, attackLevel: 0, fadeLength: 500, fadeLevel: 0)
        for envelope in [between, onSteps, meeting] {
            let effects = [
                ForceFeedbackEffect(kind: .periodic(.init(waveform: .sine, period: 160, magnitude: 0x7FFF, envelope: envelope)), length: 1000),
                ForceFeedbackEffect(kind: .ramp(start: 0, end: 0x7FFF, envelope: envelope), length: 1000),
                TestEffects.constant(0x4000, length: 1000, envelope: envelope),
            ]
            for effect in effects {
                let times = ForceFeedbackShape(effect: effect, role: .only, shortestFollowedPeriod: 4.0 / 175).sampleTimes(through: 1)
                let corners = [0, 1, Double(envelope.attackLength) / 1000, 1 - Double(envelope.fadeLength) / 1000]
                XCTAssertEqual(times.first, 0, "\(effect.kind)")
                XCTAssertEqual(times.last, 1, "\(effect.kind)")
                XCTAssertTrue(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "\(effect.kind): \(times)")
                XCTAssertTrue(corners.allSatisfy(times.contains), "\(effect.kind): \(times)")
                let step = switch effect.kind {
                case .periodic: 160.0 / 1000 / Double(ForceFeedbackShape.pointsPerPeriod)
                case .ramp: ForceFeedbackShape.rampStep
                default: 0.0
                }
                guard step > 0 else {
                    XCTAssertEqual(Set(times), Set(corners), "a constant: the corners only")
                    continue
                }
                let isStep = { (t: Double) in abs((t / step).rounded() * step - t) < 1e-9 }
                XCTAssertTrue(times.allSatisfy { corners.contains($0) || isStep($0) }, "\(effect.kind): \(times)")
                let multiples = (1..<Int((1 / step).rounded())).map { Double($0) * step }
                XCTAssertTrue(multiples.allSatisfy { multiple in times.contains { abs($0 - multiple) < 1e-9 } }, "\(effect.kind): \(times)")
            }
        }
    }

    func testResonanceSharpness() {
        XCTAssertEqual(ForceFeedbackPlan.sharpness(drivingAtResonance: lra), 1)
        var openLoop = lra
        openLoop.frequencyAdjustable = true
        XCTAssertEqual(ForceFeedbackPlan.sharpness(drivingAtResonance: openLoop), 0.5)
    }
}
