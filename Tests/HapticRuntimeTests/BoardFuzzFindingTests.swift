import BoardFiles
import Foundation
import XCTest
@testable import HapticRuntime

/// Inputs the `board` fuzz target (Fuzz/, docs/fuzzing.md) found, replayed through the same calls.
final class BoardFuzzFindingTests: XCTestCase {
    static let findings = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("FuzzFindings")

    /// `vib-overdrive-mv: 2:000…0350780370976301966:444444444444444444444:0`: YAML 1.1 reads a
    /// number with colons in base 60, and Yams multiplied its digits out without checking, so
    /// decoding the board trapped on the overflow (`boards check` exited 132).
    func testABaseSixtyNumberTooLargeForAnIntegerIsAProblemNotACrash() throws {
        // Not UTF-8 throughout (a byte 0xC1 in its first comment): read as the target reads it.
        let text = String(decoding: try Data(contentsOf: Self.findings.appendingPathComponent("board-base-60-integer-overflow.yml")), as: UTF8.self)
        XCTAssertThrowsError(try Board(yaml: text, source: "finding.yml")) { error in
            guard case BoardError.invalid(let problems) = error else { return XCTFail("\(error)") }
            let descriptions = problems.map(\.description)
            XCTAssertTrue(descriptions.contains {
                $0.hasPrefix("finding.yml:5:5: actuators[0].vib-overdrive-mv: '2:0000") && $0.hasSuffix("is not a number here: write it in decimal (YAML 1.1 would read a number with colons in base 60, 1:30 as 90)")
            }, descriptions.joined(separator: "\n"))
        }
    }
}
