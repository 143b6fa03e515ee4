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
}
