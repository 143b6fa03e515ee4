import HardwareMocks
import XCTest
@testable import HapticRuntime

final class LiveTokenSetTests: XCTestCase {
    /// Random inserts and removals, answered as the standard library's `Set` answers them: keys
    /// from a narrow range so that most operations meet a member, probe runs that wrap around the
    /// table's end, and growth from a small table.
    func testEveryOperationAnswersAsASetDoes() {
        var random = SplitMix64(seed: 0x70_4E45)
        for round in 0..<40 {
            var tokens = LiveTokenSet(minimumCapacity: round % 3 == 0 ? 0 : 64)
            var reference = Set<UInt64>()
            let range: ClosedRange<UInt64> = round % 2 == 0 ? 0...300 : 0...UInt64.max - 1
            for _ in 0..<2_000 {
                let key = UInt64.random(in: range, using: &random)
                switch Int.random(in: 0..<5, using: &random) {
                case 0, 1:
                    XCTAssertEqual(tokens.insert(key), reference.insert(key).inserted)
                case 2, 3:
                    XCTAssertEqual(tokens.remove(key), reference.remove(key) != nil)
                default:
                    // Remove a member, so that deletions inside long probe runs happen often.
                    guard let member = reference.randomElement(using: &random) else { continue }
                    XCTAssertTrue(tokens.remove(member))
                    reference.remove(member)
                }
                XCTAssertEqual(tokens.count, reference.count)
            }
            for key in reference { XCTAssertTrue(tokens.contains(key), "\(key) lost") }
            for _ in 0..<500 {
                let key = UInt64.random(in: range, using: &random)
                XCTAssertEqual(tokens.contains(key), reference.contains(key))
            }
        }
    }

    /// The scheduler's own pattern: sequences counted up, each removed a while after it was
    /// inserted, a few kept far longer (an idle timer beside a stream).
    func testConsecutiveSequencesInsertedAndRemovedLeaveOnlyTheLongLivedOnes() {
        var tokens = LiveTokenSet(minimumCapacity: 512)
        var kept: [UInt64] = []
        for sequence in UInt64(0)..<100_000 {
            tokens.insert(sequence)
            if sequence % 10_000 == 0 { kept.append(sequence) }
            if sequence >= 200, (sequence - 200) % 10_000 != 0 { XCTAssertTrue(tokens.remove(sequence - 200)) }
        }
        for sequence in UInt64(99_800)..<100_000 where sequence % 10_000 != 0 { XCTAssertTrue(tokens.remove(sequence)) }
        XCTAssertEqual(tokens.count, kept.count)
        for sequence in kept { XCTAssertTrue(tokens.contains(sequence)) }
        tokens.removeAll()
        XCTAssertTrue(tokens.isEmpty)
        XCTAssertFalse(tokens.contains(kept[0]))
    }

    /// The value that marks an empty slot is never taken for a member.
    func testTheEmptyMarkerIsNeverAMember() {
        var tokens = LiveTokenSet()
        tokens.insert(1)
        XCTAssertFalse(tokens.contains(.max))
        XCTAssertFalse(tokens.remove(.max))
        XCTAssertEqual(tokens.count, 1)
    }
}
