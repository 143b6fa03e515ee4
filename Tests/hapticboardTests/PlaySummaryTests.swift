import ActuatorHAL
import HapticRuntime
import XCTest
@testable import hapticboard

/// The pieces `play`'s summary is made of.
final class PlaySummaryTests: XCTestCase {
    private func report(_ transition: PowerTransition, _ from: PowerState, _ to: PowerState, elapsed: Int, budget: Int) -> PowerTransitionReport {
        PowerTransitionReport(transition: transition, from: from, to: to, elapsed: .microseconds(elapsed), budget: .microseconds(budget))
    }

    func testTransitionsAreTalliedByKindInFirstOccurrenceOrder() {
        let tallies = TransitionTally.tallies([
            report(.wake, .off, .standby, elapsed: 1200, budget: 2000),
            report(.prepare, .standby, .ready, elapsed: 100, budget: 700),
            report(.standby, .ready, .standby, elapsed: 200, budget: 250),
            report(.prepare, .standby, .ready, elapsed: 800, budget: 700),
            report(.standby, .ready, .standby, elapsed: 150, budget: 250),
        ])
        XCTAssertEqual(tallies.map(\.transition), ["wake", "prepare", "standby"])
        XCTAssertEqual(tallies.map(\.count), [1, 2, 2])
        XCTAssertEqual(tallies[1].maximumElapsedMicroseconds, 800)
        XCTAssertEqual(tallies[1].overruns, 1)
        XCTAssertEqual(tallies[2].maximumElapsedMicroseconds, 200)
        XCTAssertEqual(tallies[2].overruns, 0)
        XCTAssertTrue(tallies[1].text.contains("×2"), tallies[1].text)
        XCTAssertTrue(tallies[1].text.contains("1 OVERRAN"), tallies[1].text)
    }

    func testLateCountFromTheHistogram() {
        var histogram = LatenessHistogram()
        XCTAssertEqual(histogram.estimatedCount(above: .milliseconds(1)), 0)
        for _ in 0..<90 { histogram.record(.microseconds(50)) }
        XCTAssertEqual(histogram.estimatedCount(above: .milliseconds(1)), 0)
        for _ in 0..<10 { histogram.record(.milliseconds(5)) }
        XCTAssertEqual(histogram.estimatedCount(above: .milliseconds(1)), 10)
        histogram.record(.milliseconds(2))
        XCTAssertEqual(histogram.estimatedCount(above: .milliseconds(1)), 11)
    }

    func testNotationTextTakesSemicolonsAsLineBreaks() {
        XCTAssertEqual(PlayContent.notationLines("loud sharp; . 0.2s;soft dull"), "loud sharp\n. 0.2s\nsoft dull")
        // Spaces after the first are indentation.
        XCTAssertEqual(PlayContent.notationLines("continuous 0.3s:;   intensity: loud"), "continuous 0.3s:\n  intensity: loud")
    }

    func testEffectPatternIsOneCuedTransient() throws {
        let pattern = try PlayContent.pattern(playingEffect: 47)
        XCTAssertEqual(pattern.events.count, 1)
        XCTAssertEqual(pattern.events[0].romCue?.lraSteps, [.effect(47)])
        XCTAssertThrowsError(try PlayContent.pattern(playingEffect: 0))
        XCTAssertThrowsError(try PlayContent.pattern(playingEffect: 124))
    }
}
