import Logging
import XCTest
@testable import hapticboard

final class DeferredMetadataLogHandlerTests: XCTestCase {
    /// Records what reaches it, and counts how often its metadata was set.
    private struct RecordingHandler: LogHandler {
        final class Record: @unchecked Sendable {
            var events: [LogEvent] = []
            var metadataSets = 0
        }

        let record = Record()
        var logLevel: Logger.Level = .info
        var metadata: Logger.Metadata = [:] {
            didSet { record.metadataSets += 1 }
        }

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            record.events.append(event)
        }
    }

    func testMetadataReachesTheBaseOnlyWithALineAndTheLinesOwnKeysWin() throws {
        let base = RecordingHandler()
        var logger = Logger(label: "test") { _ in DeferredMetadataLogHandler(base) }
        logger[metadataKey: "hb.request.id"] = "7"
        logger[metadataKey: "client"] = "1"
        XCTAssertEqual(base.record.metadataSets, 0, "setting metadata formats nothing in the base")
        XCTAssertEqual(logger[metadataKey: "client"], "1")

        logger.debug("below the level")
        XCTAssertTrue(base.record.events.isEmpty)
        logger.info("trigger", metadata: ["client": "2"])
        let event = try XCTUnwrap(base.record.events.first)
        XCTAssertEqual(event.metadata?["hb.request.id"], "7")
        XCTAssertEqual(event.metadata?["client"], "2", "the line's own metadata wins")
    }

    func testTheLevelIsTheBases() {
        let base = RecordingHandler()
        var handler = DeferredMetadataLogHandler(base)
        handler.logLevel = .warning
        XCTAssertEqual(handler.logLevel, .warning)
        var logger = Logger(label: "test") { _ in handler }
        logger.info("filtered")
        logger.warning("kept")
        XCTAssertEqual(base.record.events.map(\.message), ["kept"])
        logger.logLevel = .debug
        XCTAssertEqual(logger.logLevel, .debug)
    }
}
