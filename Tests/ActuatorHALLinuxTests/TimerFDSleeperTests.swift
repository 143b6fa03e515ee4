import ActuatorHAL
import ActuatorHALLinux
import XCTest

/// The real kernel's timerfd + eventfd sleep. Nothing here asserts on how long anything took: an
/// interrupt that was lost would make a sleep return `false` (deadline reached) instead of `true`.
final class TimerFDSleeperTests: XCTestCase {
    func testAnInterruptSentBeforeTheSleepEndsItAtOnceAndOnlyOnce() throws {
        try assertInterruptsSentBeforeASleepEndOnlyIt(TimerFDSleeper())
    }

    func testAPastDeadlineReturnsAsReached() throws {
        let clock = SystemMonotonicClock()
        let sleeper = try TimerFDSleeper()
        XCTAssertFalse(try sleeper.sleep(until: clock.now - .milliseconds(1)))
        XCTAssertFalse(try sleeper.sleep(until: .zero))
    }

    func testAnInterruptFromAnotherThreadEndsASleep() throws {
        let clock = SystemMonotonicClock()
        let sleeper = try TimerFDSleeper()
        let sent = expectation(description: "interrupt sent")
        Thread.detachNewThread {
            sleeper.interrupt()
            sent.fulfill()
        }
        XCTAssertTrue(try sleeper.sleep(until: clock.now + .seconds(30)))
        wait(for: [sent], timeout: 30)
    }
}
