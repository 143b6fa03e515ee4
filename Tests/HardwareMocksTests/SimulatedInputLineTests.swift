import ActuatorHAL
import HardwareMocks
import XCTest

final class SimulatedInputLineTests: XCTestCase {
    func testInjectedEdgeChangesTheLevelAndIsQueuedWithItsTime() throws {
        let clock = VirtualClock()
        let line = SimulatedInputLine(name: "sim IRQ", clock: clock)
        XCTAssertEqual(try line.read(), .low)

        clock.advance(by: .milliseconds(3))
        line.inject(.rising)
        XCTAssertEqual(try line.read(), .high)
        clock.advance(by: .milliseconds(2))
        line.inject(.falling)
        XCTAssertEqual(try line.read(), .low)
        XCTAssertEqual(line.pendingEdges, 2)

        XCTAssertEqual(try line.waitForEdge(timeout: .seconds(1)), EdgeEvent(edge: .rising, timestamp: .zero + .milliseconds(3)))
        XCTAssertEqual(try line.waitForEdge(timeout: .seconds(1)), EdgeEvent(edge: .falling, timestamp: .zero + .milliseconds(5)))
        XCTAssertEqual(clock.now, .zero + .milliseconds(5), "queued edges return without moving time")
        XCTAssertEqual(line.pendingEdges, 0)
    }

    func testTimeoutAdvancesTheClockByTheTimeoutAndReturnsNil() throws {
        let clock = VirtualClock(start: .zero + .milliseconds(1))
        let line = SimulatedInputLine(name: "sim IRQ", initial: .high, clock: clock)
        XCTAssertNil(try line.waitForEdge(timeout: .milliseconds(20)))
        XCTAssertEqual(clock.now, .zero + .milliseconds(21))
        XCTAssertEqual(try line.read(), .high)
    }

    func testScheduledEdgeWithinTheTimeoutArrivesAtItsOwnTime() throws {
        let clock = VirtualClock()
        let line = SimulatedInputLine(name: "sim IRQ", clock: clock)
        line.schedule(.rising, at: .zero + .milliseconds(7))
        XCTAssertEqual(try line.read(), .low, "a future edge has not happened yet")
        XCTAssertEqual(line.pendingEdges, 0)

        XCTAssertNil(try line.waitForEdge(timeout: .milliseconds(5)))
        XCTAssertEqual(clock.now, .zero + .milliseconds(5))
        let event = try line.waitForEdge(timeout: .milliseconds(5))
        XCTAssertEqual(event, EdgeEvent(edge: .rising, timestamp: .zero + .milliseconds(7)))
        XCTAssertEqual(clock.now, .zero + .milliseconds(7), "the wait ends when the edge arrives, not at the timeout")
        XCTAssertEqual(try line.read(), .high)
    }

    func testEdgesScheduledOutOfOrderAreDeliveredInTimeOrder() throws {
        let clock = VirtualClock()
        let line = SimulatedInputLine(name: "sim IRQ", clock: clock)
        line.schedule(.falling, at: .zero + .milliseconds(9))
        line.schedule(.rising, at: .zero + .milliseconds(4))
        XCTAssertEqual(line.level(at: .zero + .milliseconds(5)), .high)
        XCTAssertEqual(line.level(at: .zero + .milliseconds(9)), .low)
        XCTAssertEqual(try line.waitForEdge(timeout: .seconds(1))?.edge, .rising)
        XCTAssertEqual(try line.waitForEdge(timeout: .seconds(1))?.edge, .falling)
        XCTAssertNil(try line.waitForEdge(timeout: .zero))
    }

    func testAnEdgeScheduledInThePastHappensNow() throws {
        let clock = VirtualClock(start: .zero + .milliseconds(10))
        let line = SimulatedInputLine(name: "sim IRQ", clock: clock)
        line.schedule(.rising, at: .zero + .milliseconds(2))
        XCTAssertEqual(try line.waitForEdge(timeout: .zero)?.timestamp, .zero + .milliseconds(10))
    }

    func testActiveLowLineReportsPressesAsRisingEdges() throws {
        let clock = VirtualClock()
        let line = SimulatedInputLine(name: "button", initial: .high, clock: clock, settings: InputLineSettings(bias: .pullUp, activeLow: true))
        XCTAssertEqual(try line.read(), .low, "a pulled-up idle wire is inactive")
        line.inject(.falling)
        XCTAssertEqual(try line.read(), .high)
        XCTAssertEqual(try line.waitForEdge(timeout: .zero)?.edge, .rising)
    }

    func testKernelDebounceReportsOneEdgeOnceTheWireSettles() throws {
        let clock = VirtualClock()
        let line = SimulatedInputLine(name: "button", clock: clock, settings: InputLineSettings(debounce: .milliseconds(10)))
        XCTAssertEqual(line.kernelDebounce, .milliseconds(10))
        // 19 edges in 4.5 ms: bounces ending high.
        for index in 0..<19 {
            line.schedule(index.isMultiple(of: 2) ? .rising : .falling, at: .zero + .microseconds(Int64(index) * 250))
        }
        line.schedule(.falling, at: .zero + .milliseconds(100))
        XCTAssertEqual(try line.waitForEdge(timeout: .seconds(1)), EdgeEvent(edge: .rising, timestamp: .zero + .microseconds(4_500) + .milliseconds(10)))
        XCTAssertEqual(try line.waitForEdge(timeout: .seconds(1)), EdgeEvent(edge: .falling, timestamp: .zero + .milliseconds(110)))
        XCTAssertNil(try line.waitForEdge(timeout: .seconds(1)))
    }

    func testLineWithoutKernelDebounceReportsEveryEdge() throws {
        let clock = VirtualClock()
        let line = SimulatedInputLine(name: "button", clock: clock, settings: InputLineSettings(debounce: .milliseconds(10)), debouncesInKernel: false)
        XCTAssertEqual(line.kernelDebounce, .zero)
        for index in 0..<20 { line.schedule(index.isMultiple(of: 2) ? .rising : .falling, at: .zero + .microseconds(Int64(index) * 250)) }
        var count = 0
        while try line.waitForEdge(timeout: .milliseconds(50)) != nil { count += 1 }
        XCTAssertEqual(count, 20)
    }
}
