import ActuatorHAL
import HardwareMocks
import XCTest
@testable import HapticRuntime

final class ROMDriveBudgetTests: XCTestCase {
    /// A ROM sequence as a cue or a transient places it: effects (some long buzzes among them)
    /// with waits between.
    private func sequence(_ random: inout SplitMix64) -> [SequencerStep] {
        (0..<Int.random(in: 1...4, using: &random)).map { _ in
            Bool.random(using: &random)
                ? .effect(UInt8.random(in: 1...123, using: &random))
                : .wait(.milliseconds(Int.random(in: 10...300, using: &random)))
        }
    }

    func testTheSearchFindsExactlyTheSpansAScanFinds() {
        var random = SplitMix64(seed: 0x0B0D_6E7)
        for _ in 0..<300 {
            var budget = ROMDriveBudget(limit: 0.7)
            // Cues are placed first, at any time; transients after them, in time order.
            for _ in 0..<Int.random(in: 0...10, using: &random) {
                budget.add(sequence(&random), at: Double.random(in: 0...3, using: &random))
            }
            var time = 0.0
            for _ in 0..<Int.random(in: 0...60, using: &random) {
                time += Double.random(in: 0...0.08, using: &random)
                budget.add([.effect(UInt8.random(in: 1...123, using: &random))], at: time)
            }
            XCTAssertEqual(budget.spans.map(\.start), budget.spans.map(\.start).sorted(), "placed spans in order of start")
            for _ in 0..<30 {
                let start = Double.random(in: -0.5...4, using: &random)
                let range = start..<(start + Double.random(in: 0...0.4, using: &random))
                XCTAssertEqual(budget.spans(overlapping: range), budget.spans.filter { $0.end > range.lowerBound && $0.start < range.upperBound }, "\(range)")
            }
        }
    }

    func testASpanThatEndsWhereTheRangeStartsIsNotNearIt() throws {
        var budget = ROMDriveBudget(limit: 0.7)
        budget.add([.effect(1)], at: 0)
        let placed = try XCTUnwrap(budget.spans.first)
        XCTAssertEqual(budget.spans(overlapping: placed.end..<(placed.end + 1)), [])
        XCTAssertEqual(budget.spans(overlapping: (placed.end - 0.001)..<(placed.end + 1)), [placed])
        XCTAssertEqual(budget.spans(overlapping: (placed.start - 1)..<placed.start), [])
    }

    /// The compiler asks about each candidate effect on its own (`allows(effect:at:share:)`, no
    /// sequence built per question): the answer is the one the sequence of that effect gets.
    func testAskingAboutOneEffectAnswersAsAskingAboutItsSequence() {
        var random = SplitMix64(seed: 0x51D3)
        var refused = 0
        for _ in 0..<200 {
            var budget = ROMDriveBudget(limit: 0.7)
            var time = 0.0
            for _ in 0..<Int.random(in: 0...40, using: &random) {
                time += Double.random(in: 0...0.08, using: &random)
                budget.add([.effect(UInt8.random(in: 1...123, using: &random))], at: time)
            }
            for _ in 0..<20 {
                // Ids no library has (0, 124…) included.
                let id = UInt8.random(in: 0...130, using: &random)
                let at = Double.random(in: -0.2...(time + 0.2), using: &random)
                let share = Double.random(in: 0.001...0.2, using: &random)
                let answer = budget.allows(effect: id, at: at, share: share)
                XCTAssertEqual(answer, budget.allows([.effect(id)], at: at, share: share), "effect \(id) at \(at)")
                if !answer { refused += 1 }
            }
        }
        XCTAssertGreaterThan(refused, 100, "questions the budget refuses, not only ones it allows")
    }

    func testAnUnboundedBudgetPlacesNothingAndAllowsEverything() {
        var budget = ROMDriveBudget(limit: 1)
        budget.add([.effect(47), .effect(47)], at: 0)
        XCTAssertEqual(budget.spans, [])
        XCTAssertTrue(budget.allows([.effect(47)], at: 0))
    }
}
