import ActuatorHAL
import Dispatch
import XCTest

/// The lock, condition, thread and sleeper the libraries use instead of full Foundation's.
final class ConcurrencyPrimitivesTests: XCTestCase {
    func testARecursiveLockIsTakenAgainByItsHolder() {
        let lock = Lock(recursive: true)
        let depth = lock.withLock { lock.withLock { 2 } }
        XCTAssertEqual(depth, 2)
    }

    func testATimedWaitForAPassedInstantGivesUpAtOnce() {
        let condition = ConditionLock()
        let gaveUp = condition.withLock { !condition.wait(until: ConditionLock.monotonicNow - .milliseconds(1)) }
        XCTAssertTrue(gaveUp)
    }

    func testAThreadRunsItsBodyUnderItsName() throws {
        let done = DispatchSemaphore(value: 0)
        let seen = NameBox()
        let thread = try PlatformThread.start(name: "hb-test-thread-long-name") {
            seen.name = Self.currentThreadName()
            seen.isCurrent = PlatformThread.current
            done.signal()
        }
        done.wait()
        XCTAssertEqual(seen.name, "hb-test-thread-", "the kernel keeps 15 bytes")
        XCTAssertEqual(seen.isCurrent, thread)
        XCTAssertNotEqual(PlatformThread.current, thread)
    }

    func testAnInterruptBeforeASleepEndsItAtOnceAndAPassedDeadlineEndsItUninterrupted() throws {
        let sleeper = MonotonicConditionSleeper()
        sleeper.interrupt()
        XCTAssertTrue(try sleeper.sleep(until: ConditionLock.monotonicNow + .seconds(60)), "the pending interrupt ended it")
        XCTAssertFalse(try sleeper.sleep(until: ConditionLock.monotonicNow - .milliseconds(1)), "the interrupt was used up")
    }

    private static func currentThreadName() -> String? {
        guard let text = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8) else { return nil }
        return text.trimmingCharacters(in: .newlines)
    }
}

/// What the started thread saw, handed back after the semaphore.
private final class NameBox: @unchecked Sendable {
    var name: String?
    var isCurrent: PlatformThread?
}
