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

    func testAnUnboundedBudgetPlacesNothingAndAllowsEverything() {
        var budget = ROMDriveBudget(limit: 1)
        budget.add([.effect(47), .effect(47)], at: 0)
        XCTAssertEqual(budget.spans, [])
        XCTAssertTrue(budget.allows([.effect(47)], at: 0))
    }
}
