import Foundation
import XCTest

/// `hapticboard bench` reports part (b)'s player.start() → bus write overhead (the figures are
/// the machine's; only their presence and consistency are checked).
final class BenchPlayerStartTests: XCTestCase {
    func testPlayerStartOverheadIsInTheJSONReport() throws {
        let run = try BuiltCommand().run(["bench", "--count", "5", "--period-ms", "1", "--no-realtime", "--json"])
        XCTAssertEqual(run.status, 0, run.errorOutput)
        let rows = try XCTUnwrap(try run.json()["overhead"] as? [[String: Any]])
        let row = try XCTUnwrap(rows.first { ($0["method"] as? String)?.contains("start() → bus write") == true }, "\(rows)")
        XCTAssertGreaterThan(try XCTUnwrap(row["samples"] as? Int), 0)
        let p50 = try XCTUnwrap(row["p50Microseconds"] as? Double)
        let p99 = try XCTUnwrap(row["p99Microseconds"] as? Double)
        let maximum = try XCTUnwrap(row["maxMicroseconds"] as? Double)
        XCTAssertGreaterThan(p50, 0)
        XCTAssertLessThanOrEqual(p50, p99)
        XCTAssertLessThanOrEqual(p99, maximum)
    }
}
