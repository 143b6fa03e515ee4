import ActuatorHAL
import Foundation
import HardwareMocks
import XCTest

final class LRAModelTests: XCTestCase {
    private let f0 = 175.0
    private let q = 20.0

    private func model() throws -> LRAModel {
        try LRAModel(resonantFrequency: f0, qualityFactor: q, ratedAcceleration: 1.5)
    }

    private func at(_ milliseconds: Int) -> MonotonicInstant { .zero + .milliseconds(milliseconds) }

    /// Full drive at `frequency` (nil = resonance) from `on` to `off`, then silence.
    private func burst(on: Int, off: Int, frequency: Double?) -> DriveTimeline {
        var timeline = DriveTimeline()
        timeline.record(.init(time: at(on), amplitude: 1, frequency: frequency))
        timeline.record(.init(time: at(off), amplitude: 0, frequency: frequency))
        return timeline
    }

    private func relativeError(_ measured: Double, _ expected: Double) -> Double {
        abs(measured - expected) / expected
    }

    func testTimeConstantIsQOverPiF0() throws {
        XCTAssertEqual(try model().envelopeTimeConstant.secondsValue, q / (Double.pi * f0), accuracy: 1e-9)
    }

    func testResonantDriveBuildsUpWithTheAnalyticTimeConstant() throws {
        let lra = try model()
        let tau = lra.envelopeTimeConstant.secondsValue
        let trace = lra.response(to: burst(on: 10, off: 600, frequency: nil), from: .zero, to: at(600))

        let rise90 = try XCTUnwrap(trace.riseTime(from: at(10), to: 0.9, of: lra.ratedAcceleration))
        XCTAssertLessThan(relativeError(rise90.secondsValue, tau * log(10)), 0.01, "90 % after τ·ln 10")
        let rise63 = try XCTUnwrap(trace.riseTime(from: at(10), to: 1 - exp(-1), of: lra.ratedAcceleration))
        XCTAssertLessThan(relativeError(rise63.secondsValue, tau), 0.01, "1 − 1/e after τ")

        let settled = trace.crests().filter { $0.time > at(500) }.map(\.amplitude)
        XCTAssertFalse(settled.isEmpty)
        for amplitude in settled {
            XCTAssertEqual(amplitude, lra.ratedAcceleration, accuracy: 0.01 * lra.ratedAcceleration)
        }
    }

    func testOffResonanceResponseIsSmallerAndMatchesTheAnalyticAmplitude() throws {
        let lra = try model()
        let detuned = 1.25 * f0
        let trace = lra.response(to: burst(on: 0, off: 800, frequency: detuned), from: .zero, to: at(800))

        // After 15 τ the free transient has died to e^-15; what remains is the forced response.
        let settled = trace.crests().filter { $0.time > at(600) }.map(\.amplitude)
        let measured = try XCTUnwrap(settled.max())
        let expected = lra.steadyStateAmplitude(atFrequency: detuned)
        XCTAssertLessThan(relativeError(measured, expected), 0.02)
        XCTAssertLessThan(measured, 0.2 * lra.ratedAcceleration, "25 % off a Q = 20 resonance is far down the skirt")
        XCTAssertEqual(lra.steadyStateAmplitude(atFrequency: f0), lra.ratedAcceleration, accuracy: 1e-12)
    }

    func testStoppingTheDriveRingsDownWithTheSameTimeConstant() throws {
        let lra = try model()
        let tau = lra.envelopeTimeConstant.secondsValue
        let trace = lra.response(to: burst(on: 0, off: 400, frequency: nil), from: .zero, to: at(700))

        let decay = try XCTUnwrap(trace.decayTime(after: at(400), to: 0.1))
        XCTAssertLessThan(relativeError(decay.secondsValue, tau * log(10)), 0.03)
        let tail = trace.crests().filter { $0.time > at(650) }.map(\.amplitude).max() ?? 0
        XCTAssertLessThan(tail, 0.01 * lra.ratedAcceleration, "the mass comes to rest")
    }

    func testAntiphaseBrakingStopsTheMassFasterThanFreeRingDown() throws {
        let lra = try model()
        let tau = lra.envelopeTimeConstant
        var braked = DriveTimeline()
        braked.record(.init(time: .zero, amplitude: 1, frequency: nil))
        braked.record(.init(time: at(400), amplitude: -1, frequency: nil))
        // Antiphase drive pulls the envelope towards −rated: it crosses zero after τ·ln 2.
        braked.record(.init(time: at(400) + tau * log(2.0), amplitude: 0, frequency: nil))

        let free = lra.response(to: burst(on: 0, off: 400, frequency: nil), from: .zero, to: at(700))
        let brakedTrace = lra.response(to: braked, from: .zero, to: at(700))
        let freeDecay = try XCTUnwrap(free.decayTime(after: at(400)))
        let brakedDecay = try XCTUnwrap(brakedTrace.decayTime(after: at(400)))
        XCTAssertLessThan(brakedDecay.secondsValue, 0.5 * freeDecay.secondsValue)
    }

    func testPCMDriveAtResonanceMatchesTheTimelineDrive() throws {
        let lra = try model()
        let tau = lra.envelopeTimeConstant.secondsValue
        let rate = 8_000.0
        let sine = (0..<Int(0.4 * rate)).map { sin(2 * Double.pi * f0 * Double($0) / rate) }
        let trace = lra.response(toPCM: sine, sampleRate: rate, followedBy: .milliseconds(300))

        XCTAssertEqual(trace.samples.count, Int(0.7 * lra.stepRate))
        let rise = try XCTUnwrap(trace.riseTime(from: .zero, to: 0.9, of: lra.ratedAcceleration))
        XCTAssertLessThan(relativeError(rise.secondsValue, tau * log(10)), 0.03)
        let decay = try XCTUnwrap(trace.decayTime(after: at(400)))
        XCTAssertLessThan(relativeError(decay.secondsValue, tau * log(10)), 0.03)
    }

    func testEnvelopeIsThePeakPerWindow() throws {
        let trace = AccelerationTrace(start: .zero, sampleRate: 1_000, samples: [0, 0.5, -2, 1, 0.1, -0.3, 0.2])
        XCTAssertEqual(trace.envelope(window: .milliseconds(3)), [2, 1, 0.2])
        XCTAssertEqual(trace.crests().map(\.amplitude), [2, 0.3])
        XCTAssertEqual(trace.time(ofSample: 2), at(2))
    }

    func testParametersAreValidated() {
        XCTAssertThrowsError(try LRAModel(resonantFrequency: 0, qualityFactor: 10))
        XCTAssertThrowsError(try LRAModel(resonantFrequency: 175, qualityFactor: 0.4))
        XCTAssertThrowsError(try LRAModel(resonantFrequency: 175, qualityFactor: 10, ratedAcceleration: -1))
        XCTAssertThrowsError(try LRAModel(resonantFrequency: 175, qualityFactor: 10, stepRate: 2_000)) { error in
            XCTAssertEqual(error as? LRAModelError, .invalidParameter("step rate", value: 2_000, requirement: "at least 20.0 × the resonant frequency"))
        }
    }
}
