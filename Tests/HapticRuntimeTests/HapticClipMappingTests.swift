import ActuatorHAL
import XCTest
@testable import HapticRuntime

/// Meta's .haptic → Core Haptics mapping, rule by rule, with hapticboard's two corrections
/// (relative control-point times; continuous events from the first breakpoint) and Core Haptics'
/// limits (16 control points per curve, 30 s per continuous event).
final class HapticClipMappingTests: XCTestCase {
    private let clip = HapticClip(
        amplitude: [
            AmplitudeBreakpoint(time: 0, amplitude: 0.25),
            AmplitudeBreakpoint(time: 0.1, amplitude: 0.64, emphasis: Emphasis(amplitude: 0.81, frequency: 0.3)),
            AmplitudeBreakpoint(time: 0.4, amplitude: 0),
        ],
        frequency: [FrequencyBreakpoint(time: 0, frequency: 0.16), FrequencyBreakpoint(time: 0.4, frequency: 0.49)])

    private func curve(_ id: DynamicParameterID, of pattern: HapticPattern) throws -> ParameterCurve {
        try XCTUnwrap(pattern.parameterCurves.first { $0.id == id })
    }

    func testIntensityIsTheSquareRootOfAmplitudeDuckedAtEmphasis() throws {
        let points = try curve(.hapticIntensityControl, of: clip.pattern).controlPoints
        XCTAssertEqual(points.map(\.time), [0, 0.1, 0.4])
        XCTAssertEqual(points[0].value, 0.5, accuracy: 1e-12)
        XCTAssertEqual(points[1].value, 0.8 * 0.8, accuracy: 1e-12, "√0.64 × 0.8 ducking")
        XCTAssertEqual(points[2].value, 0, accuracy: 1e-12)
    }

    func testSharpnessIsTheSquareRootOfFrequency() throws {
        let points = try curve(.hapticSharpnessControl, of: clip.pattern).controlPoints
        XCTAssertEqual(points.map(\.value), [0.4, 0.7])
    }

    func testEachEmphasisIsATransientOfRootAmplitudeAndItsFrequency() throws {
        let transients = clip.pattern.events.filter { $0.type == .hapticTransient }
        XCTAssertEqual(transients.count, 1)
        let click = try XCTUnwrap(transients.first)
        XCTAssertEqual(click.time, 0.1)
        XCTAssertEqual(click.value(of: .hapticIntensity), 0.9, accuracy: 1e-12)
        XCTAssertEqual(click.value(of: .hapticSharpness), 0.3, "emphasis frequency → sharpness as is")
        XCTAssertTrue(click.isEmphasis)
    }

    func testTheContinuousEventHasIntensityOneSharpnessZeroAndSpansTheClip() throws {
        let continuous = clip.pattern.events.filter { $0.type == .hapticContinuous }
        XCTAssertEqual(continuous.count, 1)
        XCTAssertEqual(continuous[0].time, 0)
        XCTAssertEqual(continuous[0].duration, 0.4)
        XCTAssertEqual(continuous[0].value(of: .hapticIntensity), 1)
        XCTAssertEqual(continuous[0].value(of: .hapticSharpness), 0)
        XCTAssertEqual(clip.pattern.duration, 0.4, accuracy: 1e-12)
    }

    func testEvaluatedIntensityAndSharpnessFollowTheEnvelopes() {
        let evaluator = PatternEvaluator(clip.pattern)
        // Halfway between 0 (√0.25 = 0.5) and 0.1 (0.64): linear in intensity.
        let sounding = evaluator.state(at: 0.05).continuous
        XCTAssertEqual(sounding.count, 1)
        XCTAssertEqual(sounding[0].intensity, (0.5 + 0.64) / 2, accuracy: 1e-9)
        XCTAssertEqual(sounding[0].sharpness, 0.4 + (0.7 - 0.4) * 0.05 / 0.4, accuracy: 1e-9)
    }

    func testControlPointTimesAreRelativeToTheCurveAndNothingPlaysBeforeTheFirstBreakpoint() throws {
        let late = HapticClip(amplitude: [AmplitudeBreakpoint(time: 0.5, amplitude: 1), AmplitudeBreakpoint(time: 0.7, amplitude: 0.25)])
        let pattern = late.pattern
        let intensity = try curve(.hapticIntensityControl, of: pattern)
        XCTAssertEqual(intensity.time, 0.5)
        XCTAssertEqual(intensity.controlPoints[0].time, 0)
        XCTAssertEqual(intensity.controlPoints[1].time, 0.2, accuracy: 1e-12, "relative to the curve's Time (the reference converters would write 0.5, 0.7)")
        let continuous = try XCTUnwrap(pattern.events.first { $0.type == .hapticContinuous })
        XCTAssertEqual(continuous.time, 0.5)
        XCTAssertEqual(continuous.duration ?? 0, 0.2, accuracy: 1e-12)
        let evaluator = PatternEvaluator(pattern)
        XCTAssertTrue(evaluator.state(at: 0.25).continuous.isEmpty, "no buzz before the clip starts")
        XCTAssertEqual(evaluator.state(at: 0.6).continuous.first?.intensity ?? -1, 0.75, accuracy: 1e-9)
    }

    func testLongEnvelopesAreChunkedAtSixteenPointsWithoutASeam() throws {
        let breakpoints = (0..<40).map { AmplitudeBreakpoint(time: Double($0) * 0.01, amplitude: Double($0 % 5) / 4) }
        let pattern = HapticClip(amplitude: breakpoints).pattern
        let curves = pattern.parameterCurves.filter { $0.id == .hapticIntensityControl }
        XCTAssertEqual(curves.map(\.controlPoints.count), [16, 16, 10], "40 points: 16, then 15 + the shared seam, then 9 + the seam")
        for (left, right) in zip(curves, curves.dropFirst()) {
            let end = try XCTUnwrap(left.controlPoints.last)
            XCTAssertEqual(left.time + end.time, right.time, accuracy: 1e-12)
            XCTAssertEqual(end.value, right.controlPoints.first?.value)
            XCTAssertEqual(right.controlPoints.first?.time, 0)
        }
        let evaluator = PatternEvaluator(pattern)
        for (index, breakpoint) in breakpoints.enumerated() where index < 39 {
            XCTAssertEqual(evaluator.state(at: breakpoint.time).continuous.first?.intensity ?? -1, breakpoint.amplitude.squareRoot(), accuracy: 1e-9, "at \(breakpoint.time)")
        }
    }

    func testClipsOverThirtySecondsArePlayedWholeInPiecesOfAtMostThirty() throws {
        let long = HapticClip(amplitude: [AmplitudeBreakpoint(time: 0, amplitude: 0.5), AmplitudeBreakpoint(time: 70, amplitude: 0.5)])
        let continuous = long.pattern.events.filter { $0.type == .hapticContinuous }
        XCTAssertEqual(continuous.map(\.time), [0, 30, 60])
        XCTAssertEqual(continuous.map { $0.duration ?? 0 }, [30, 30, 10])
        // The compiler plays it whole: the stream ends at 70 s, not at 30 s.
        let program = PatternCompiler(capabilities: ActuatorCapabilities(
            kind: .lra, romLibrary: .lra, supportsRealtimeAmplitude: true, supportsSignedAmplitude: false,
            supportsPCM: false, resonantFrequency: 175, frequencyAdjustable: false,
            amplitudeUpdateCost: .microseconds(73), maximumContinuousDrive: nil)).compile(long.pattern)
        XCTAssertEqual(program.duration, 70, accuracy: 0.01)
        XCTAssertGreaterThan(program.commands.filter { $0.time > 69 }.count, 0)
    }

    func testAnyPatternWrittenAsAHAPIsFittedToCoreHapticsLimits() throws {
        let points = (0..<20).map { ControlPoint(time: Double($0) * 0.1, value: Double($0) / 19) }
        let pattern = HapticPattern(events: [TestPatterns.continuous(duration: 45)], parameterCurves: [ParameterCurve(.hapticIntensityControl, time: 1, controlPoints: points)])
        let fitted = pattern.fittedToCoreHapticsLimits()
        XCTAssertEqual(fitted.events.map { $0.duration ?? 0 }, [30, 15])
        XCTAssertEqual(fitted.parameterCurves.map(\.controlPoints.count), [16, 5])
        XCTAssertEqual(fitted.parameterCurves.map(\.time), [1, 2.5])
        let (before, after) = (PatternEvaluator(pattern), PatternEvaluator(fitted))
        for step in 0...300 {
            let time = Double(step) * 0.01
            XCTAssertEqual(before.controls.value(of: .hapticIntensityControl, at: time), after.controls.value(of: .hapticIntensityControl, at: time), accuracy: 1e-12)
        }
    }
}
