import Foundation
import XCTest
@testable import HapticRuntime

/// Every example of seed 003 (Examples/notation) compiles to what its prose describes.
final class HapticNotationExampleTests: XCTestCase {
    func testEverySeedExampleIsPresentAndCompilesWithoutWarnings() throws {
        let names = try NotationTestSupport.exampleNames()
        XCTAssertEqual(names.count, 23)
        for name in names {
            let content = try NotationTestSupport.example(name)
            XCTAssertEqual(content.format, .notation, name)
            XCTAssertFalse(content.pattern.events.isEmpty, name)
            XCTAssertEqual(content.warnings, [], name)
        }
    }

    func testExampleThreeTapsArePointThreeSecondsApart() throws {
        let pattern = try NotationTestSupport.example("example.hnl").pattern
        assertNotationClose(pattern.eventTimes, [0, 0.3, 0.6])
        XCTAssertEqual(pattern.eventIntensities, [0.8, 0.5, 0.3])
        XCTAssertEqual(pattern.eventSharpnesses, [1.0, 0.5, 0.0])
        XCTAssertEqual(pattern.eventTypes, [.hapticTransient, .hapticTransient, .hapticTransient])
    }

    func testCombinedNotationMixesAliasesAndRawValues() throws {
        let pattern = try NotationTestSupport.example("combined-notation.hnl").pattern
        // Transients do not advance time, so lines without rests play together.
        assertNotationClose(pattern.eventTimes, [0, 0, 0, 0, 0])
        XCTAssertEqual(pattern.eventIntensities, [0.8, 0.3, 0.7, 0.8, 0.5])
        XCTAssertEqual(pattern.eventSharpnesses, [1.0, 0.0, 0.3, 0.2, 1.0])
    }

    func testCommentsAreIgnored() throws {
        let pattern = try NotationTestSupport.example("comments.hnl").pattern
        assertNotationClose(pattern.eventTimes, [0])
        XCTAssertEqual(pattern.eventIntensities, [0.8])
    }

    func testRestsDefaultToATenthOfASecond() throws {
        let pattern = try NotationTestSupport.example("rests.hnl").pattern
        assertNotationClose(pattern.eventTimes, [0, 0.1, 0.3])
        XCTAssertEqual(pattern.eventIntensities, [0.8, 0.3, 0.5])
    }

    func testTransientEventsWithARest() throws {
        let pattern = try NotationTestSupport.example("transient-events.hnl").pattern
        assertNotationClose(pattern.eventTimes, [0, 0.2])
        XCTAssertEqual(pattern.eventSharpnesses, [1.0, 0.0])
    }

    func testContinuousEventWithoutEnvelopeHoldsItsIntensity() throws {
        let pattern = try NotationTestSupport.example("continuous-events.hnl").pattern
        XCTAssertEqual(pattern.eventTypes, [.hapticContinuous])
        XCTAssertEqual(pattern.events[0].duration, 1)
        XCTAssertEqual(pattern.eventIntensities, [0.8])
        XCTAssertEqual(pattern.eventSharpnesses, [1.0])
        XCTAssertEqual(pattern.parameterCurves, [])
    }

    func testContinuousWithADSREnvelopeBecomesAnIntensityCurve() throws {
        let pattern = try NotationTestSupport.example("continuous-events-with-adsr-envelope.hnl").pattern
        XCTAssertEqual(pattern.events[0].duration, 2)
        XCTAssertEqual(pattern.eventIntensities, [1.0])
        XCTAssertEqual(pattern.eventSharpnesses, [0.5])
        let curve = try XCTUnwrap(pattern.parameterCurves.first)
        XCTAssertEqual(curve.id, .hapticIntensityControl)
        XCTAssertEqual(curve.time, 0)
        assertNotationClose(curve.controlPointTimes, [0, 0.1, 0.3, 2.0, 2.0])
        assertNotationClose(curve.controlPointValues, [0, 1, 0.85, 0.85, 0])
    }

    func testADSRTableOfTheSeed() throws {
        // Attack 0 → 0.2 s to 1.0, decay 0.2 → 0.6 s to 0.8, sustain 0.6 → 2.0 s at 0.8, ends at 2.0 s
        // (release 1.0: no release phase, silence at the end).
        let pattern = try NotationTestSupport.example("adsr-envelope.hnl").pattern
        XCTAssertEqual(pattern.events[0].duration, 2)
        XCTAssertEqual(pattern.eventIntensities, [0.5], "continuous defaults to medium")
        XCTAssertEqual(pattern.eventSharpnesses, [0.5], "continuous defaults to balanced")
        let curve = try XCTUnwrap(pattern.parameterCurves.first)
        assertNotationClose(curve.controlPointTimes, [0, 0.2, 0.6, 2.0, 2.0])
        assertNotationClose(curve.controlPointValues, [0, 1.0, 0.8, 0.8, 0])
    }

    func testSequencePlaysItemsAtItsInterval() throws {
        let pattern = try NotationTestSupport.example("sequences.hnl").pattern
        assertNotationClose(pattern.eventTimes, [0, 0.15, 0.3])
        XCTAssertEqual(pattern.eventIntensities, [0.8, 0.5, 0.3])
    }

    func testRestsInASequenceSkipABeat() throws {
        let pattern = try NotationTestSupport.example("rests-in-sequences.hnl").pattern
        assertNotationClose(pattern.eventTimes, [0, 0.4, 0.8])
        XCTAssertEqual(pattern.eventIntensities, [1.0, 0.8, 0.5])
    }

    func testLoopRepeatsThreeTimes() throws {
        let pattern = try NotationTestSupport.example("loops.hnl").pattern
        assertNotationClose(pattern.eventTimes, [0, 0.25, 0.5])
        XCTAssertEqual(pattern.eventIntensities, [0.3, 0.3, 0.3])
    }

    func testLoopWithMultipleEventsPlaysBothEachIteration() throws {
        let pattern = try NotationTestSupport.example("loop-with-multiple-events.hnl").pattern
        assertNotationClose(pattern.eventTimes, [0, 0.5, 1.0, 1.5])
        XCTAssertEqual(pattern.eventIntensities, [0.8, 0.3, 0.8, 0.3])
    }

    func testRampWithCubicCurveRisesMonotonicallyToItsEndValues() throws {
        let pattern = try NotationTestSupport.example("ramps.hnl").pattern
        let times = pattern.eventTimes
        XCTAssertEqual(times.first, 0)
        XCTAssertEqual(try XCTUnwrap(times.last), 2, accuracy: 1e-12)
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
        XCTAssertEqual(try XCTUnwrap(gaps.first), 0.2, accuracy: 1e-9, "first interval is the start interval")
        for (earlier, later) in zip(gaps.dropLast(2), gaps.dropFirst().dropLast()) {
            XCTAssertLessThanOrEqual(later, earlier + 1e-12, "pulses accelerate")
        }
        XCTAssertEqual(pattern.eventIntensities.first, 0.3)
        XCTAssertEqual(pattern.eventIntensities.last, 1.0)
        XCTAssertEqual(pattern.eventSharpnesses.first, 0.2)
        XCTAssertEqual(pattern.eventSharpnesses.last, 0.8)
        XCTAssertEqual(pattern.eventIntensities, pattern.eventIntensities.sorted())
    }

    func testRampUsingAliasesWithEaseIn() throws {
        let pattern = try NotationTestSupport.example("ramps-using-aliases.hnl").pattern
        // Default interval 0.1 s: pulses at 0 … 0.9 s, then the final pulse at 1 s.
        assertNotationClose(pattern.eventTimes, (0...10).map { Double($0) / 10 })
        let expected = (0..<10).map { 0.3 + 0.7 * pow(Double($0) / 10, 2) } + [1.0]
        assertNotationClose(pattern.eventIntensities, expected)
        assertNotationClose(pattern.eventSharpnesses, (0..<10).map { pow(Double($0) / 10, 2) } + [1.0])
    }

    func testPartialRampUsesDefaults() throws {
        let pattern = try NotationTestSupport.example("partial-ramps.hnl").pattern
        assertNotationClose(pattern.eventTimes, (0...10).map { Double($0) / 10 })
        assertNotationClose(pattern.eventIntensities, (0...10).map { 0.8 * Double($0) / 10 })
        XCTAssertEqual(Set(pattern.eventSharpnesses), [0.5])
    }

    func testVariables() throws {
        let pattern = try NotationTestSupport.example("variables.hnl").pattern
        assertNotationClose(pattern.eventTimes, [0, 0.3, 0.45])
        XCTAssertEqual(pattern.eventIntensities, [0.8, 0.3, 0.3])
        XCTAssertEqual(pattern.eventSharpnesses, [0.0, 1.0, 1.0])
    }

    func testDefineAContinuous() throws {
        let pattern = try NotationTestSupport.example("define-a-continuous.hnl").pattern
        XCTAssertEqual(pattern.eventTypes, [.hapticContinuous])
        XCTAssertEqual(pattern.events[0].duration, 0.5)
        XCTAssertEqual(pattern.eventSharpnesses, [0.0])
        let curve = try XCTUnwrap(pattern.parameterCurves.first)
        assertNotationClose(curve.controlPointTimes, [0, 0.05, 0.1, 0.5, 0.5])
        assertNotationClose(curve.controlPointValues, [0, 1, 0.8, 0.8, 0])
    }

    func testDefineASequence() throws {
        let pattern = try NotationTestSupport.example("define-a-sequence.hnl").pattern
        assertNotationClose(pattern.eventTimes, [0, 0.1, 0.2])
        XCTAssertEqual(pattern.eventIntensities, [0.5, 0.8, 1.0])
    }

    func testDefineALoop() throws {
        let pattern = try NotationTestSupport.example("define-a-loop.hnl").pattern
        assertNotationClose(pattern.eventTimes, [0, 0.3])
        XCTAssertEqual(pattern.eventSharpnesses, [0.5, 0.5])
    }

    func testDoubleTapNotification() throws {
        let pattern = try NotationTestSupport.example("double-tap-notification.hnl").pattern
        assertNotationClose(pattern.eventTimes, [0, 0.2])
        XCTAssertEqual(pattern.eventIntensities, [0.3, 0.3])
    }

    func testSuccessConfirmation() throws {
        let pattern = try NotationTestSupport.example("success-confirmation.hnl").pattern
        assertNotationClose(pattern.eventTimes, [0, 0.3, 0.45, 0.7, 1.2, 1.32, 1.44])
        XCTAssertEqual(pattern.eventTypes, [
            .hapticTransient, .hapticTransient, .hapticTransient, .hapticContinuous,
            .hapticTransient, .hapticTransient, .hapticTransient,
        ])
        XCTAssertEqual(try XCTUnwrap(pattern.events[3].duration), 0.4, accuracy: 1e-12)
        XCTAssertEqual(pattern.eventIntensities, [0.8, 0.3, 0.3, 0.5, 0.3, 0.5, 0.8])
        let curve = try XCTUnwrap(pattern.parameterCurves.first)
        XCTAssertEqual(curve.time, 0.7, accuracy: 1e-9)
        assertNotationClose(curve.controlPointTimes, [0, 0.04, 0.12, 0.4, 0.4])
    }

    func testWarningBuzzIsThreeShortBuzzes() throws {
        let pattern = try NotationTestSupport.example("warning-buzz.hnl").pattern
        assertNotationClose(pattern.eventTimes, [0, 0.3, 0.6])
        XCTAssertEqual(pattern.eventTypes, [.hapticContinuous, .hapticContinuous, .hapticContinuous])
        XCTAssertEqual(pattern.events.map(\.duration), [0.1, 0.1, 0.1])
        assertNotationClose(pattern.parameterCurves.map(\.time), [0, 0.3, 0.6])
    }

    func testAcceleratingPulseByHand() throws {
        let pattern = try NotationTestSupport.example("accelerating-pulse.hnl").pattern
        // Linear: interval(p) = 0.2 − 0.15·p with p = t / 2.
        assertNotationClose(Array(pattern.eventTimes.prefix(4)), [0, 0.2, 0.385, 0.556125])
        assertNotationClose(Array(pattern.eventIntensities.prefix(2)), [0.3, 0.3 + 0.7 * 0.1])
        XCTAssertEqual(try XCTUnwrap(pattern.eventTimes.last), 2, accuracy: 1e-12)
        XCTAssertEqual(pattern.eventIntensities.last, 1.0)
        XCTAssertEqual(pattern.eventSharpnesses.last, 0.8)
        var offset = 0.0
        var expected: [Double] = []
        while offset < 2 - 1e-9 {
            expected.append(offset)
            offset += 0.2 - 0.15 * offset / 2
        }
        assertNotationClose(pattern.eventTimes, expected + [2])
    }
}
