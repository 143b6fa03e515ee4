import ActuatorHAL
import HapticRuntime
import XCTest

/// Debounce, quadrature decoding and the edge-flood cap, on timestamps alone.
final class InputDecodingTests: XCTestCase {
    private func at(_ microseconds: Int64) -> MonotonicInstant { .zero + .microseconds(microseconds) }

    func testAFiveMillisecondBurstOfTwentyEdgesIsOnePress() {
        var debouncer = SoftwareDebouncer(period: .milliseconds(10), initial: .low)
        var reported: [EdgeEvent] = []
        for index in 0..<20 {
            reported += debouncer.receive(EdgeEvent(edge: index.isMultiple(of: 2) ? .rising : .falling, timestamp: at(Int64(index) * 250)))
        }
        XCTAssertEqual(reported, [EdgeEvent(edge: .rising, timestamp: at(0))], "the press answers at the first edge; the bounces are swallowed")
        // The burst ended low (20 edges): the release counts once the quiet period is over.
        XCTAssertEqual(debouncer.deadline, at(10_000))
        XCTAssertNil(debouncer.settle(at: at(9_999)))
        XCTAssertEqual(debouncer.settle(at: at(10_000)), EdgeEvent(edge: .falling, timestamp: at(10_000)))
        XCTAssertNil(debouncer.deadline)
    }

    func testABounceThatEndsPressedReportsNoReleaseAndTheLaterReleaseCounts() {
        var debouncer = SoftwareDebouncer(period: .milliseconds(10), initial: .low)
        var reported: [EdgeEvent] = []
        for index in 0..<19 {
            reported += debouncer.receive(EdgeEvent(edge: index.isMultiple(of: 2) ? .rising : .falling, timestamp: at(Int64(index) * 250)))
        }
        XCTAssertNil(debouncer.deadline, "the line ended where it was reported")
        reported += debouncer.receive(EdgeEvent(edge: .falling, timestamp: at(200_000)))
        XCTAssertEqual(reported.map(\.edge), [.rising, .falling])
        XCTAssertEqual(reported.last?.timestamp, at(200_000))
    }

    func testTheNextEdgeAfterAQuietPeriodReportsTheSettledLevelFirst() {
        var debouncer = SoftwareDebouncer(period: .milliseconds(10), initial: .low)
        _ = debouncer.receive(EdgeEvent(edge: .rising, timestamp: at(0)))
        _ = debouncer.receive(EdgeEvent(edge: .falling, timestamp: at(2_000)))
        // Nobody called settle; a new press after the period still sees the release first.
        let out = debouncer.receive(EdgeEvent(edge: .rising, timestamp: at(50_000)))
        XCTAssertEqual(out, [EdgeEvent(edge: .falling, timestamp: at(10_000)), EdgeEvent(edge: .rising, timestamp: at(50_000))])
    }

    /// The four Gray-code states of one detent forward (A leads B), as edges 1.25 ms apart: 200 detents/s.
    private func turn(_ decoder: InputDecoder, detents: Int, forward: Bool, from start: inout Int64) -> [InputEvent] {
        var events: [InputEvent] = []
        let sequence: [(InputDecoder.LineRole, Edge)] = forward
            ? [(.encoderA("knob"), .rising), (.encoderB("knob"), .rising), (.encoderA("knob"), .falling), (.encoderB("knob"), .falling)]
            : [(.encoderB("knob"), .rising), (.encoderA("knob"), .rising), (.encoderB("knob"), .falling), (.encoderA("knob"), .falling)]
        for _ in 0..<detents {
            for (role, edge) in sequence {
                events += decoder.receive(EdgeEvent(edge: edge, timestamp: at(start)), on: role)
                start += 1_250
            }
        }
        return events
    }

    func testAnEncoderTurnedAt200DetentsASecondLosesNone() {
        let decoder = InputDecoder(buttons: [], encoders: [("knob", .low, .low, 4)])
        var time: Int64 = 0
        let forward = turn(decoder, detents: 400, forward: true, from: &time)
        let backward = turn(decoder, detents: 150, forward: false, from: &time)
        XCTAssertEqual(forward.count, 400)
        XCTAssertTrue(forward.allSatisfy { $0.kind == .step(1) })
        XCTAssertEqual(backward.count, 150)
        XCTAssertTrue(backward.allSatisfy { $0.kind == .step(-1) })
        XCTAssertEqual(decoder.droppedEdges, [:])
    }

    func testContactBounceOnOneEncoderLineCancelsOut() {
        var decoder = QuadratureDecoder(a: .low, b: .low)
        var moved = 0
        // A bounces three times before settling high, then the rest of the detent.
        for level in [LineLevel.high, .low, .high, .low, .high] { moved += decoder.updateA(level) }
        moved += decoder.updateB(.high)
        moved += decoder.updateA(.low)
        moved += decoder.updateB(.low)
        XCTAssertEqual(moved, 1)
        XCTAssertEqual(decoder.missedEdges, 0)
    }

    func testAnEncoderWithTwoTransitionsPerDetentStepsTwiceACycle() {
        var decoder = QuadratureDecoder(a: .low, b: .low, transitionsPerDetent: 2)
        let moved = [decoder.updateA(.high), decoder.updateB(.high), decoder.updateA(.low), decoder.updateB(.low)]
        XCTAssertEqual(moved, [0, 1, 0, 1])
    }

    func testAMissedEdgeIsCountedNotGuessed() {
        var decoder = QuadratureDecoder(a: .low, b: .low)
        XCTAssertEqual(decoder.updateA(.high), 0)
        // A's fall was lost: A "rises" again.
        XCTAssertEqual(decoder.updateA(.high), 0)
        XCTAssertEqual(decoder.missedEdges, 1)
    }

    func testAnEdgeFloodIsCappedWithOneWarningASecond() {
        let decoder = InputDecoder(buttons: [("float", .zero, .low)], encoders: [])
        let warnings = WarningLog()
        decoder.warningHandler = { warnings.append($0) }
        var presses = 0
        // A floating line: 20,000 edges a second for two seconds.
        for index in 0..<40_000 {
            let events = decoder.receive(EdgeEvent(edge: index.isMultiple(of: 2) ? .rising : .falling, timestamp: at(Int64(index) * 50)), on: .button("float"))
            presses += events.filter { $0.kind == .press }.count
        }
        let dropped = decoder.droppedEdges["float"] ?? 0
        XCTAssertGreaterThan(dropped, 30_000)
        XCTAssertLessThanOrEqual(40_000 - dropped, Int(InputDecoder.edgeBurst) + 2 * Int(InputDecoder.defaultEdgesPerSecond) + 1)
        XCTAssertLessThanOrEqual(presses, (40_000 - dropped + 1) / 2)
        XCTAssertEqual(warnings.entries.count, 2, "one warning per second of flood")
        XCTAssertTrue(warnings.entries[0].contains("float"))
    }
}

final class WarningLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func append(_ entry: String) { lock.lock(); stored.append(entry); lock.unlock() }
    var entries: [String] { lock.lock(); defer { lock.unlock() }; return stored }
}
