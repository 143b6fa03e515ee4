import XCTest
@testable import HapticRuntime

/// Each construct of the language on its own, and how constructs combine in time.
final class HapticNotationConstructTests: XCTestCase {
    private func pattern(_ text: String) throws -> HapticPattern {
        try HapticNotation.parse(text, file: "test.hnl").pattern
    }

    func testIntensityAndSharpnessAliases() throws {
        let text = "silent dull\nsoft balanced\nmedium sharp\nloud dull\nmax dull"
        let result = try pattern(text)
        XCTAssertEqual(result.eventIntensities, [0.0, 0.3, 0.5, 0.8, 1.0])
        XCTAssertEqual(result.eventSharpnesses, [0.0, 0.5, 1.0, 0.0, 0.0])
    }

    func testRawAndPlainNumberValues() throws {
        let result = try pattern("i0.25 s0.75\ni1 s0\n0.4 0.6")
        XCTAssertEqual(result.eventIntensities, [0.25, 1.0, 0.4])
        XCTAssertEqual(result.eventSharpnesses, [0.75, 0.0, 0.6])
    }

    func testOutOfRangeValuesAreClampedWithAWarning() throws {
        let content = try HapticNotation.parse("i1.5 s0.5", file: "test.hnl")
        XCTAssertEqual(content.pattern.eventIntensities, [1.0])
        XCTAssertEqual(content.warnings, [
            ContentWarning(location: "test.hnl:1:1", message: "intensity 1.5 is outside 0–1; clamped to 1"),
        ])
    }

    func testTransientsDoNotAdvanceTimeButRestsAndContinuousDo() throws {
        let result = try pattern("loud sharp\nsoft dull\n.\ncontinuous 0.5s:\n  intensity: max\n. 0.25s\nloud sharp")
        assertNotationClose(result.eventTimes, [0, 0, 0.1, 0.85])
        XCTAssertEqual(result.eventTypes, [.hapticTransient, .hapticTransient, .hapticContinuous, .hapticTransient])
    }

    func testFullLineAndInlineCommentsAnywhere() throws {
        let text = """
            # heading
            loop 2x 0.1s: # a loop
                # a comment indented differently from the block
              loud sharp # first
            # between
              soft dull
            """
        assertNotationClose(try pattern(text).eventTimes, [0, 0.1, 0.2, 0.3])
    }

    func testSequenceEndsAtItsLastSlot() throws {
        // Like the public implementation: after a sequence of transients, time stands at the last one.
        assertNotationClose(try pattern("sequence 0.1s:\n  loud sharp\n  soft dull\n. 0.1s\nmedium dull").eventTimes, [0, 0.1, 0.2])
    }

    func testSequenceWhoseLastItemLastsEndsAfterIt() throws {
        let text = "sequence 0.1s:\n  loud sharp\n  continuous 0.5s:\n    intensity: soft\nmax sharp\n. 0.1s\nmax sharp"
        let result = try pattern(text)
        assertNotationClose(result.eventTimes, [0, 0.1, 0.6, 0.7])
    }

    func testLoopAdvancesByCountTimesItemsTimesInterval() throws {
        assertNotationClose(try pattern("loop 2x 0.1s:\n  loud sharp\n  .\nsoft dull").eventTimes, [0, 0.2, 0.4])
    }

    func testRestTimeInsideASlotIsIgnoredWithAWarning() throws {
        let content = try HapticNotation.parse("sequence 0.1s:\n  loud sharp\n  . 0.5s\n  soft dull", file: "t.hnl")
        assertNotationClose(content.pattern.eventTimes, [0, 0.2])
        XCTAssertEqual(content.warnings.map(\.location), ["t.hnl:3:5"])
    }

    func testNestedBlocks() throws {
        let text = """
            loop 2x 0.4s:
              sequence 0.1s:
                loud sharp
                soft dull
              .
            """
        assertNotationClose(try pattern(text).eventTimes, [0, 0.1, 0.8, 0.9])
    }

    func testDefinitionWithSeveralStatementsFlowsLikeTheTopLevel() throws {
        let text = "define flam:\n  loud sharp\n  . 0.05s\n  soft dull\nflam\n. 0.5s\nflam"
        assertNotationClose(try pattern(text).eventTimes, [0, 0.05, 0.55, 0.6])
    }

    func testReferencesInsideSequencesAndLoops() throws {
        let text = "define tick:\n  soft sharp\nsequence 0.2s:\n  tick\n  tick\nloop 2x 0.1s:\n  tick"
        assertNotationClose(try pattern(text).eventTimes, [0, 0.2, 0.2, 0.3])
    }

    func testRedefinitionAppliesToLaterUsesAndWarns() throws {
        let text = "define tap:\n  soft dull\ntap\n.\ndefine tap:\n  loud sharp\ntap"
        let content = try HapticNotation.parse(text, file: "t.hnl")
        XCTAssertEqual(content.pattern.eventIntensities, [0.3, 0.8])
        XCTAssertEqual(content.warnings.map(\.location), ["t.hnl:5:8"])
    }

    func testContinuousDefaultsAndLongEventWarning() throws {
        let content = try HapticNotation.parse("continuous 31s:\n  sharpness: s0.2", file: "t.hnl")
        XCTAssertEqual(content.pattern.eventIntensities, [0.5])
        XCTAssertEqual(content.pattern.eventSharpnesses, [0.2])
        XCTAssertEqual(content.pattern.events.first?.duration, 31)
        XCTAssertEqual(content.warnings.map(\.location), ["t.hnl:1:12"])
    }

    /// Release falls to zero at the event's end; the control (a multiplier for what follows) is
    /// set back to 1 from that instant on, so a tap after the envelope plays at full intensity.
    func testADSRReleaseFallsToZeroAndLaterEventsPlayAtFullIntensity() throws {
        let result = try pattern(". 0.5s\ncontinuous 1s:\n  adsr: 0.2, 0.4, 0.5, 0.9\nloud sharp")
        let curve = try XCTUnwrap(result.parameterCurves.first)
        XCTAssertEqual(curve.time, 0.5)
        assertNotationClose(curve.controlPointTimes, [0, 0.2, 0.4, 0.9, 1.0])
        assertNotationClose(curve.controlPointValues, [0, 1, 0.5, 0.5, 0])
        let timeline = ControlTimeline(pattern: result)
        XCTAssertEqual(timeline.value(of: .hapticIntensityControl, at: 0.5 + 0.95), 0.25, accuracy: 1e-9, "half way down the release")
        XCTAssertEqual(timeline.value(of: .hapticIntensityControl, at: 0.5 + 0.999), 0.005, accuracy: 1e-9)
        XCTAssertEqual(timeline.value(of: .hapticIntensityControl, at: 1.5), 1, "back to 1 for the tap at the end")
    }

    func testRampWithConstantIntervalEndsWithAFinalPulseAtItsDuration() throws {
        let result = try pattern("ramp 1s:\n  intensity: 0.2 > 1\n  interval: 0.25s > 0.25s")
        assertNotationClose(result.eventTimes, [0, 0.25, 0.5, 0.75, 1])
        assertNotationClose(result.eventIntensities, [0.2, 0.4, 0.6, 0.8, 1.0])
    }

    func testRampOfZeroLengthIsOnlyItsFinalPulse() throws {
        let result = try pattern("ramp 0s:\n  intensity: soft > loud\nmax sharp")
        assertNotationClose(result.eventTimes, [0, 0])
        XCTAssertEqual(result.eventIntensities, [0.8, 1.0])
    }

    func testRampCurveClampsOvershootWithAWarning() throws {
        let content = try HapticNotation.parse("ramp 1s:\n  intensity: 0 > 1\n  curve: cubic(0.5, 0, 0.5, 1.8)", file: "t.hnl")
        XCTAssertTrue(content.pattern.eventIntensities.allSatisfy { (0...1).contains($0) })
        XCTAssertEqual(content.warnings.map(\.location), ["t.hnl:1:1"])
    }

    func testEventsAreSortedByTimeKeepingTextOrderForTies() throws {
        let result = try pattern("sequence 0.1s:\n  ramp 0.3s:\n    interval: 0.1s > 0.1s\n  max sharp")
        assertNotationClose(result.eventTimes, [0, 0.1, 0.1, 0.2, 0.3])
        XCTAssertEqual(result.eventIntensities, [0.5, 0.5, 1.0, 0.5, 0.5])
    }

    func testCRLFLineEndingsAndTabIndentation() throws {
        assertNotationClose(try pattern("sequence 0.1s:\r\n\tloud sharp\r\n\tsoft dull\r\n").eventTimes, [0, 0.1])
    }

    func testEmptyTextIsAnEmptyPattern() throws {
        XCTAssertEqual(try pattern("\n# nothing\n   \n").events, [])
    }

    func testRampCurves() {
        XCTAssertEqual(RampCurve.linear.progress(at: 0.25), 0.25)
        XCTAssertEqual(RampCurve.easeIn.progress(at: 0.25), 0.0625)
        XCTAssertEqual(RampCurve.easeOut.progress(at: 0.25), 0.4375)
        XCTAssertEqual(RampCurve.easeInOut.progress(at: 0.25), 0.125)
        XCTAssertEqual(RampCurve.easeInOut.progress(at: 0.75), 0.875)
        for curve in [RampCurve.linear, .easeIn, .easeOut, .easeInOut, .cubic(x1: 0.42, y1: 0, x2: 0.58, y2: 1)] {
            XCTAssertEqual(curve.progress(at: 0), 0, accuracy: 1e-12, "\(curve)")
            XCTAssertEqual(curve.progress(at: 1), 1, accuracy: 1e-12, "\(curve)")
        }
    }

    func testCubicBezierIsSolvedForX() {
        // CSS `ease` at x = 0.5 (the value browsers compute).
        XCTAssertEqual(RampCurve.cubic(x1: 0.25, y1: 0.1, x2: 0.25, y2: 1).progress(at: 0.5), 0.802403387585, accuracy: 1e-9)
        XCTAssertEqual(RampCurve.cubic(x1: 0, y1: 0, x2: 1, y2: 1).progress(at: 0.3), 0.3, accuracy: 1e-9)
        let symmetric = RampCurve.cubic(x1: 0.42, y1: 0, x2: 0.58, y2: 1)
        XCTAssertEqual(symmetric.progress(at: 0.5), 0.5, accuracy: 1e-12)
        for x in stride(from: 0.0, through: 1.0, by: 0.05) {
            XCTAssertEqual(symmetric.progress(at: x) + symmetric.progress(at: 1 - x), 1, accuracy: 1e-9)
        }
        // A flat start (x1 = 0) where Newton's method has no slope to follow.
        let steep = RampCurve.cubic(x1: 0, y1: 1, x2: 0, y2: 1)
        for t in stride(from: 0.0, through: 1.0, by: 0.1) {
            let u = 1 - t
            let x = 3 * u * t * t * 0 + 3 * u * u * t * 0 + t * t * t
            let y = 3 * u * u * t + 3 * u * t * t + t * t * t
            XCTAssertEqual(steep.progress(at: x), y, accuracy: 1e-6)
        }
    }
}
