import ActuatorHAL
import HardwareMocks
import XCTest

final class VirtualClockTests: XCTestCase {
    func testSleepAdvancesTimeToTheDeadline() {
        let clock = VirtualClock()
        clock.sleep(until: .zero + .microseconds(250))
        XCTAssertEqual(clock.now, MonotonicInstant(nanoseconds: 250_000))
        clock.sleep(until: .zero + .microseconds(100))
        XCTAssertEqual(clock.now, MonotonicInstant(nanoseconds: 250_000), "time never goes backwards")
    }

    func testManualClockBlocksSleeperUntilAdvanced() {
        let clock = VirtualClock(sleepAdvancesTime: false)
        let woke = expectation(description: "sleeper woke")
        Thread.detachNewThread {
            clock.sleep(until: .zero + .milliseconds(5))
            woke.fulfill()
        }
        clock.advance(by: .milliseconds(4))
        clock.advance(by: .milliseconds(1))
        wait(for: [woke], timeout: 10)
        XCTAssertEqual(clock.now.nanoseconds, 5_000_000)
    }

    func testInterruptibleSleeperJumpsToTheDeadlineUnlessInterruptedFirst() {
        let clock = VirtualClock()
        let sleeper = clock.makeInterruptibleSleeper()
        sleeper.interrupt()
        XCTAssertEqual(try sleeper.sleep(until: .zero + .milliseconds(5)), true)
        XCTAssertEqual(clock.now, .zero, "an interrupted sleep does not move time")
        XCTAssertEqual(try sleeper.sleep(until: .zero + .milliseconds(5)), false)
        XCTAssertEqual(clock.now.nanoseconds, 5_000_000)
    }

    func testInterruptWakesABlockedSleeperWithoutMovingTime() throws {
        let clock = VirtualClock(sleepAdvancesTime: false)
        let sleeper = clock.makeInterruptibleSleeper()
        let woke = expectation(description: "sleeper returned")
        let result = ResultBox()
        Thread.detachNewThread {
            result.set((try? sleeper.sleep(until: .zero + .milliseconds(5))) ?? false)
            woke.fulfill()
        }
        XCTAssertEqual(clock.waitForSleeper(), .zero + .milliseconds(5))
        sleeper.interrupt()
        wait(for: [woke], timeout: 10)
        XCTAssertEqual(result.value, true)
        XCTAssertEqual(clock.now, .zero)
        XCTAssertNil(clock.waitForSleeper(timeout: .zero), "nobody sleeps any more")
    }
}

private final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Bool?

    var value: Bool? { lock.withLock { stored } }

    func set(_ value: Bool) {
        lock.withLock { stored = value }
    }
}
