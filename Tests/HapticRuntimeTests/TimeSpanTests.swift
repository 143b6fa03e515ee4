import HardwareMocks
import XCTest
@testable import HapticRuntime

final class TimeSpanTests: XCTestCase {
    /// Spans as `StreamContent.spans` gives them (in order, apart by more than `gap`), then
    /// widened as the compiler widens them for a mode switch before and a brake after.
    private func streamingSpans(_ random: inout SplitMix64, gap: Double, before: Double, after: Double) -> [TimeSpan] {
        var spans: [TimeSpan] = []
        var time = Double.random(in: 0...0.05, using: &random)
        for _ in 0..<Int.random(in: 0...40, using: &random) {
            let start = time + gap + Double.random(in: 0.000_1...0.05, using: &random)
            let end = start + Double.random(in: 0.000_1...0.2, using: &random)
            spans.append(TimeSpan(start: start - before, end: end + after))
            time = end
        }
        return spans
    }

    func testABinarySearchFindsAnOverlapExactlyWhenAScanDoes() {
        var random = SplitMix64(seed: 0x7153_A115)
        for _ in 0..<2_000 {
            let spans = streamingSpans(&random, gap: 0.001, before: 0.002, after: 0.003)
            let last = spans.last?.end ?? 1
            for _ in 0..<20 {
                let start = Double.random(in: -0.05...(last + 0.05), using: &random)
                let item = TimeSpan(start: start, end: start + Double.random(in: 0.000_1...0.06, using: &random))
                XCTAssertEqual(spans.anyOverlaps(item), spans.contains { $0.overlaps(item) }, "\(item) against \(spans)")
            }
        }
    }

    func testSpansThatOnlyTouchDoNotOverlap() {
        let spans = [TimeSpan(start: 0, end: 1), TimeSpan(start: 2, end: 3)]
        XCTAssertFalse(spans.anyOverlaps(TimeSpan(start: 1, end: 2)))
        XCTAssertTrue(spans.anyOverlaps(TimeSpan(start: 0.999, end: 2)))
        XCTAssertTrue(spans.anyOverlaps(TimeSpan(start: 1, end: 2.001)))
        XCTAssertFalse([TimeSpan]().anyOverlaps(TimeSpan(start: 0, end: 1)))
    }
}
