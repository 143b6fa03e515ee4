import Foundation
import XCTest

/// `hapticboard bench --service` measures what `serve` runs: every trigger over the socket and
/// over the WebSocket, and every direct start, reaches the bus, the host's wake-up peer answers
/// every write, and the sustained load loses nothing (the figures are the machine's; only their
/// presence is checked). Unprivileged, as CI runs it: the timing thread then runs without
/// real-time scheduling, but it runs.
final class BenchServiceTests: XCTestCase {
    func testEveryTriggerReachesTheBusWithoutRealtimePermission() throws {
        let run = try BuiltCommand().run(["bench", "--service", "--count", "5", "--service-triggers", "100", "--no-realtime", "--json"])
        XCTAssertEqual(run.status, 0, run.errorOutput)
        let figures = try run.json()
        for key in ["socketTrigger", "webSocketTrigger", "webSocketTriggerThroughClientLibrary", "directStart", "hostWakeUp"] {
            let row = try XCTUnwrap(figures[key] as? [String: Any], key)
            XCTAssertEqual(row["samples"] as? Int, 5, "\(key): \(row)")
        }
        XCTAssertEqual(figures["sustainedTriggers"] as? Int, 100)
        XCTAssertEqual(figures["lost"] as? Int, 0)
        XCTAssertEqual(figures["errors"] as? Int, 0)
    }
}
