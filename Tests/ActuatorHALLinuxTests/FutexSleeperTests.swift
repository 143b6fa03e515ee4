import ActuatorHAL
import ActuatorHALLinux
import XCTest

/// The real kernel's futex sleep, which `SystemMonotonicClock` hands the timing thread. Nothing
/// here asserts on how long anything took: a lost interrupt would make a sleep return `false`
/// (its deadline, 30 s away, reached) or time the test out, never pass.
final class FutexSleeperTests: XCTestCase {
    func testTheSystemClockHandsOutAFutexSleeper() throws {
        XCTAssertTrue(try SystemMonotonicClock().makeInterruptibleSleeper() is FutexSleeper)
    }

    func testAnInterruptSentBeforeTheSleepEndsItAtOnceAndOnlyOnce() throws {
        try assertInterruptsSentBeforeASleepEndOnlyIt(FutexSleeper())
    }

    func testAPastDeadlineReturnsAsReached() throws {
        let clock = SystemMonotonicClock()
        let sleeper = FutexSleeper()
        XCTAssertFalse(try sleeper.sleep(until: clock.now - .milliseconds(1)))
        XCTAssertFalse(try sleeper.sleep(until: .zero))
        XCTAssertFalse(try sleeper.sleep(until: MonotonicInstant(nanoseconds: -5)), "before the clock's origin is past too")
    }

    func testADeadlineReachedLeavesNoInterruptBehind() throws {
        let clock = SystemMonotonicClock()
        let sleeper = FutexSleeper()
        XCTAssertFalse(try sleeper.sleep(until: clock.now + .milliseconds(1)))
        sleeper.interrupt()
        XCTAssertTrue(try sleeper.sleep(until: clock.now + .seconds(30)), "an interrupt after a timed-out sleep still ends the next")
    }

    func testEveryInterruptFromAnotherThreadEndsASleep() throws {
        let clock = SystemMonotonicClock()
        let sleeper = FutexSleeper()
        let rounds = 2_000
        // The other thread interrupts once per round, after this one says it is about to sleep:
        // some interrupts land before the wait, some during it; each must end exactly one sleep.
        let ready = DispatchSemaphore(value: 0)
        let done = expectation(description: "interrupter finished")
        Thread.detachNewThread {
            for _ in 0..<rounds {
                ready.wait()
                sleeper.interrupt()
            }
            done.fulfill()
        }
        for round in 0..<rounds {
            ready.signal()
            XCTAssertTrue(try sleeper.sleep(until: clock.now + .seconds(30)), "round \(round): the interrupt ended the sleep")
        }
        wait(for: [done], timeout: 30)
        XCTAssertFalse(try sleeper.sleep(until: clock.now), "no interrupt left over")
    }
}

/// Two interrupts sent before a 30 s sleep end it at once, and leave nothing for the next sleep.
func assertInterruptsSentBeforeASleepEndOnlyIt(_ sleeper: any InterruptibleSleeper, file: StaticString = #filePath, line: UInt = #line) throws {
    let clock = SystemMonotonicClock()
    sleeper.interrupt()
    sleeper.interrupt()
    XCTAssertTrue(try sleeper.sleep(until: clock.now + .seconds(30)), "the pending interrupt ends the sleep", file: file, line: line)
    XCTAssertFalse(try sleeper.sleep(until: clock.now), "interrupts do not pile up", file: file, line: line)
}
