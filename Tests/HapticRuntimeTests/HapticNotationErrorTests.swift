import XCTest
@testable import HapticRuntime

/// Each error: its exact line and column, the quoted line with its caret, and the hint.
final class HapticNotationErrorTests: XCTestCase {
    /// Parses `text` expecting an error at `line`:`column`; returns it for further checks.
    @discardableResult
    private func assertError(
        _ text: String, at line: Int, _ column: Int, message: String, hint: String?,
        limits: HapticNotation.Limits = .standard, file: StaticString = #filePath, testLine: UInt = #line
    ) -> HapticNotationError? {
        do {
            let content = try HapticNotation.parse(text, file: "t.hnl", limits: limits)
            XCTFail("expected an error, got \(content.pattern.events.count) events", file: file, line: testLine)
            return nil
        } catch {
            XCTAssertEqual(error.file, "t.hnl", file: file, line: testLine)
            XCTAssertEqual(error.line, line, "line", file: file, line: testLine)
            XCTAssertEqual(error.column, column, "column", file: file, line: testLine)
            XCTAssertEqual(error.message, message, file: file, line: testLine)
            XCTAssertEqual(error.hint, hint, file: file, line: testLine)
            let sourceLine = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)[line - 1]
            XCTAssertEqual(error.sourceLine, String(sourceLine), file: file, line: testLine)
            return error
        }
    }

    func testUnknownPropertySuggestsTheClosestOne() {
        let error = assertError(
            "continuous 1s:\n  intensity: loud\n  sharpnes: sharp", at: 3, 3,
            message: "unknown property 'sharpnes' in 'continuous'", hint: "did you mean 'sharpness'?")
        XCTAssertEqual(error?.description, """
            t.hnl:3:3: unknown property 'sharpnes' in 'continuous'
              sharpnes: sharp
              ^
            hint: did you mean 'sharpness'?
            """)
    }

    func testIndentationNotAMultipleOfTheUnit() {
        let error = assertError(
            "# taps\nloud sharp\nsequence 0.1s:\n    soft dull\n      loud sharp", at: 5, 7,
            message: "indentation of 6 is not a multiple of the indent unit (4)",
            hint: "indent with the same unit as line 4")
        XCTAssertEqual(error?.caretLine, "      ^")
    }

    func testIndentationMoreThanOneLevelDeeper() {
        assertError(
            "loop 2x 0.1s:\n  sequence 0.1s:\n      loud sharp", at: 3, 7,
            message: "line is indented more than one level deeper than the line before",
            hint: "indent with the same unit as line 2")
    }

    func testTabsAndSpacesMixed() {
        assertError(
            "loop 2x 0.1s:\n\tloud sharp\n  soft dull", at: 3, 3,
            message: "indentation mixes tabs and spaces", hint: "indent with the same unit as line 2")
    }

    func testCaretFollowsTabsOfTheLine() {
        let error = assertError(
            "loop 2x 0.1s:\n\tloud sharpp", at: 2, 7,
            message: "expected sharpness (dull, balanced, sharp or a number), found 'sharpp'",
            hint: "did you mean 'sharp'?")
        XCTAssertEqual(error?.description, "t.hnl:2:7: expected sharpness (dull, balanced, sharp or a number), found 'sharpp'\n\tloud sharpp\n\t     ^\nhint: did you mean 'sharp'?")
    }

    func testIndentationWithoutAHeader() {
        assertError(
            "loud sharp\n  soft dull", at: 2, 3,
            message: "unexpected indentation", hint: "only the lines below a header ending in ':' are indented")
    }

    func testBlockKeywordWithoutColon() {
        assertError(
            "sequence 0.1s\n  loud sharp", at: 1, 14,
            message: "expected ':' to open the block before the end of the line", hint: nil)
    }

    func testHeaderWithoutBlock() {
        let error = assertError(
            "sequence 0.1s:\nloud sharp", at: 1, 14,
            message: "'sequence 0.1s:' needs an indented block below it",
            hint: "indent the lines that belong to 'sequence 0.1s:' below it")
        XCTAssertEqual(error?.caretLine, "             ^")
    }

    func testUndefinedName() {
        assertError("loud sharp\ntap", at: 2, 1, message: "'tap' is not defined", hint: "define 'tap' before using it")
    }

    func testNameUsedBeforeItsDefinition() {
        assertError(
            "tap\ndefine tap:\n  soft sharp", at: 1, 1, message: "'tap' is not defined",
            hint: "define 'tap' before using it (its definition is on line 2)")
    }

    func testMisspelledNameSuggestsTheDefinition() {
        assertError("define tick:\n  soft sharp\ntikc", at: 3, 1, message: "'tikc' is not defined", hint: "did you mean 'tick'?")
    }

    func testMisspelledKeyword() {
        assertError("sequnce 0.1s:\n  loud sharp", at: 1, 1, message: "'sequnce' is not defined", hint: "did you mean 'sequence'?")
    }

    func testRecursiveDefinition() {
        assertError(
            "define a:\n  loud sharp\n  a", at: 3, 3, message: "'a' is used inside its own definition",
            hint: "a definition can only use names defined before it")
    }

    func testDefineInsideABlock() {
        assertError(
            "sequence 0.1s:\n  define x:\n    loud sharp", at: 2, 3, message: "'define' is only allowed at the top level",
            hint: "move the 'define' to the start of a line without indentation")
    }

    func testDefiningAnAlias() {
        assertError(
            "define loud:\n  soft sharp", at: 1, 8, message: "'loud' is a word of the language and cannot be defined",
            hint: "choose another name")
    }

    func testMissingSharpness() {
        assertError(
            "loud # no sharpness", at: 1, 5, message: "expected a sharpness after the intensity",
            hint: "add a sharpness: dull, balanced, sharp or a raw value like s0.5")
    }

    func testSharpnessFirst() {
        assertError(
            "sharp loud", at: 1, 1, message: "'sharp' is a sharpness; a haptic starts with its intensity",
            hint: "write the intensity first, as in 'loud sharp'")
    }

    func testExtraTokenAfterATransient() {
        assertError("loud sharp soft", at: 1, 12, message: "expected the end of the line, found 'soft'", hint: nil)
    }

    func testTimeWithoutUnit() {
        assertError(". 0.3", at: 1, 3, message: "the time '0.3' has no unit", hint: "add the unit: '0.3s'")
    }

    func testUnknownUnit() {
        assertError(
            ". 300ms", at: 1, 6, message: "unknown unit 'ms'",
            hint: "times are in seconds ('0.3s'); repeat counts use 'x' ('3x')")
    }

    func testNumberWithoutLeadingZero() {
        assertError(
            "loud sharp\n.5s", at: 2, 1, message: "a number must start with a digit",
            hint: "write '0.5', and put a space after a rest: '. 0.5s'")
    }

    func testMalformedNumber() {
        assertError(
            "i1.2.3 sharp", at: 1, 2, message: "'1.2.3' is not a valid number here",
            hint: "numbers look like 0.25; repeat counts are whole numbers like 3x")
    }

    func testUnexpectedCharacter() {
        assertError(
            "continuous 1s:\n  intensity = loud", at: 2, 13, message: "unexpected character '='",
            hint: "write a property as 'name: value'")
    }

    func testPropertyOutsideABlock() {
        assertError(
            "intensity: loud", at: 1, 1,
            message: "'intensity' is a property and belongs inside a 'continuous' or 'ramp' block",
            hint: "indent it below 'continuous 1s:' or 'ramp 1s:'")
    }

    func testPropertyOfTheWrongBlock() {
        assertError(
            "continuous 1s:\n  interval: 0.1s > 0.2s", at: 2, 3, message: "'interval' is not a property of 'continuous'",
            hint: "a continuous takes intensity, sharpness and adsr")
    }

    func testDuplicateProperty() {
        assertError(
            "ramp 1s:\n  intensity: soft > loud\n  intensity: loud > soft", at: 3, 3,
            message: "'intensity' is already given on line 2", hint: "keep one of the two lines")
    }

    func testRampWithoutArrow() {
        assertError(
            "ramp 1s:\n  intensity: soft loud", at: 2, 19,
            message: "expected '>' between the start and end values, found 'loud'", hint: nil)
    }

    func testUnknownCurve() {
        assertError(
            "ramp 1s:\n  curve: easyIn", at: 2, 10,
            message: "expected a curve (linear, easeIn, easeOut, easeInOut or cubic(x1, y1, x2, y2)), found 'easyIn'",
            hint: "did you mean 'easeIn'?")
    }

    func testCubicXOutOfRange() {
        assertError(
            "ramp 1s:\n  curve: cubic(1.2, 0, 0.5, 1)", at: 2, 16, message: "x1 1.2 is out of range",
            hint: "use a value in 0–1")
    }

    func testADSRValueOutOfRange() {
        assertError(
            "continuous 1s:\n  adsr: 0.1, 1.5, 0.8, 1.0", at: 2, 14, message: "decay 1.5 is out of range",
            hint: "use a value in 0–1")
    }

    func testADSROutOfOrder() {
        assertError(
            "continuous 1s:\n  adsr: 0.5, 0.2, 0.8, 1.0", at: 2, 9,
            message: "adsr points must not go backwards: attack ≤ decay ≤ release",
            hint: "each point is a fraction of the duration, e.g. 'adsr: 0.1, 0.3, 0.8, 1.0'")
    }

    func testADSRMissingAValue() {
        assertError(
            "continuous 1s:\n  adsr: 0.1, 0.3, 0.8", at: 2, 22,
            message: "expected ',' and the release before the end of the line", hint: nil)
    }

    func testZeroLengthContinuous() {
        assertError(
            "continuous 0s:\n  intensity: loud", at: 1, 12, message: "duration 0 is out of range",
            hint: "use a value above 0 s")
    }

    func testLoopWithoutCount() {
        assertError(
            "loop 0.25s:\n  loud sharp", at: 1, 6,
            message: "expected a repeat count such as '3x', found '0.25s'",
            hint: "write the count before the interval: 'loop 3x 0.25s:'")
    }

    func testFractionalLoopCount() {
        assertError(
            "loop 2.5x 0.1s:\n  loud sharp", at: 1, 6, message: "'2.5x' is not a valid number here",
            hint: "numbers look like 0.25; repeat counts are whole numbers like 3x")
    }

    func testLoopCountAboveTheLimit() {
        assertError(
            "loop 20000x 0.1s:\n  loud sharp", at: 1, 6, message: "repeat count 20000 is out of range",
            hint: "use a value from 1x to 10000x")
    }

    func testRampStepsAreBounded() {
        assertError(
            "ramp 100s:\n  interval: 0.001s > 0.001s", at: 1, 1, message: "the ramp would play more than 10000 pulses",
            hint: "use a longer interval or a shorter ramp")
    }

    func testRampIntervalDrivenBelowZeroByItsCurve() {
        assertError(
            "ramp 1s:\n  interval: 0.2s > 0.01s\n  curve: cubic(0.5, 3, 0.5, 3)", at: 1, 1,
            message: "the ramp interval must stay above 0 s",
            hint: "use positive intervals, or a curve that stays between 0 and 1")
    }

    func testEventCountIsBounded() {
        let eleven = String(repeating: "  loud sharp\n", count: 11)
        assertError(
            "define ten:\n" + eleven + "loop 10000x 0.1s:\n  ten", at: 12, 3,
            message: "the pattern would hold more than 100000 events", hint: "use fewer repeats or shorter ramps")
    }

    func testEvaluationWorkIsBounded() {
        assertError(
            "define many:\n  loop 10000x 0.1s:\n    .\nloop 10000x 0.1s:\n  many", at: 3, 5,
            message: "loops and references expand to more than 1000000 steps", hint: "use fewer repeats or shorter ramps")
    }

    func testNestingDepthIsBounded() {
        assertError(
            "loop 1x 0.1s:\n  loop 1x 0.1s:\n    loop 1x 0.1s:\n      loud sharp", at: 3, 5,
            message: "blocks are nested more than 1 levels deep", hint: "move inner blocks into a 'define' and use its name",
            limits: HapticNotation.Limits(maximumNestingDepth: 1))
    }

    func testPatternLengthIsBounded() {
        assertError(
            "loop 10000x 1000s:\n  loop 10000x 1000s:\n    loud sharp", at: 3, 5,
            message: "the pattern would last longer than 86400 s", hint: "use shorter times or fewer repeats")
    }

    func testReferenceChainsAreBounded() {
        var text = "define d0:\n  loud sharp\n"
        for level in 1...65 { text += "define d\(level):\n  d\(level - 1)\n" }
        text += "d65"
        // d65 → d64 → … : the 65th nested reference is `d1`, written inside `d2` on line 6.
        assertError(
            text, at: 6, 3, message: "definitions use definitions more than 64 levels deep",
            hint: "define larger patterns directly instead of through long chains of names")
    }

    func testLongWordsAreReportedQuickly() {
        let word = String(repeating: "q", count: 200_000)
        assertError(word, at: 1, 1, message: "'\(word)' is not defined", hint: "define '\(word)' before using it")
    }

    func testBlockWrittenOnItsHeaderLine() {
        assertError(
            "define tick: soft sharp", at: 1, 14, message: "'define tick:' needs an indented block below it",
            hint: "indent the lines that belong to 'define tick:' below it")
    }

    func testTimeAloneOnALineSuggestsARest() {
        assertError(
            "loud sharp\n0.3s\nsoft dull", at: 2, 1,
            message: "expected a haptic, a rest, a block or a defined name, found '0.3s'", hint: "did you mean '. 0.3s'?")
    }

    func testErrorPastTheEndOfTheLinePutsTheCaretAfterIt() {
        let error = assertError(
            "loop 3x", at: 1, 8, message: "expected an interval such as '0.25s' before the end of the line", hint: nil)
        XCTAssertEqual(error?.caretLine, "       ^")
    }
}
