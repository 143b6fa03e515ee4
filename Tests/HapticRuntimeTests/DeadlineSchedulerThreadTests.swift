import ActuatorHAL
import HardwareMocks
import XCTest
@testable import HapticRuntime

/// The timing thread on a `VirtualClock` whose sleeps block until the test advances time: the test
/// waits for the thread to be asleep (`waitForSleeper`) and for actions (expectations) instead of
/// sleeping on wall time.
final class DeadlineSchedulerThreadTests: XCTestCase {
    func testEarlierCommandWakesTheSleepingThreadAndDispatchesFirst() throws {
        let clock = VirtualClock(sleepAdvancesTime: false)
        let scheduler = DeadlineScheduler(clock: clock)
        let log = ActionLog()
        let early = expectation(description: "early command ran")
        let late = expectation(description: "late command ran")
        scheduler.schedule(at: ms(10), class: .transient, costKey: "k") {
            log.append("late", at: clock.now)
            late.fulfill()
        }
        scheduler.startThread()
        defer { scheduler.stopThread() }

        let firstSleep = try XCTUnwrap(clock.waitForSleeper(), "the thread sleeps toward the 10 ms command")
        XCTAssertLessThan(firstSleep, ms(10))
        XCTAssertGreaterThan(firstSleep, ms(5))

        scheduler.schedule(at: ms(5), class: .transient, costKey: "k") {
            log.append("early", at: clock.now)
            early.fulfill()
        }
        let secondSleep = try XCTUnwrap(clock.waitForSleeper(deadlineAtOrBefore: ms(5)), "woken early, it sleeps toward 5 ms")
        XCTAssertGreaterThan(secondSleep, ms(4))

        clock.advance(to: ms(5))
        wait(for: [early], timeout: 10)
        XCTAssertEqual(log.entries, [.init(label: "early", time: ms(5))])

        // Advancing while the early action still runs would count as that action's cost (its lead).
        XCTAssertNotNil(clock.waitForSleeper(deadlineAtOrBefore: ms(10)), "back asleep toward 10 ms")
        clock.advance(to: ms(10))
        wait(for: [late], timeout: 10)
        XCTAssertEqual(log.entries.map(\.label), ["early", "late"])
        XCTAssertEqual(log.entries.last?.time, ms(10))
        scheduler.stopThread() // lateness is recorded after an action returns
        XCTAssertEqual(scheduler.metrics.lateness.maximum, .zero)
    }

    /// The engine queues with `deferringWake` and pays the wake-up after running what was due, so
    /// that a start's first write does not share the moment with the timing thread's wake-up.
    func testADeferredWakeLeavesTheThreadAsleepUntilItIsPaid() throws {
        let clock = VirtualClock(sleepAdvancesTime: false)
        let scheduler = DeadlineScheduler(clock: clock)
        let early = expectation(description: "early command ran")
        scheduler.schedule(at: ms(10), class: .control, costKey: "k") {}
        scheduler.startThread()
        defer { scheduler.stopThread() }
        XCTAssertNotNil(clock.waitForSleeper(deadlineAtOrBefore: ms(10)))

        let (_, isDue) = scheduler.enqueue(at: ms(5), class: .control, costKey: "k", action: .closure { early.fulfill() }, deferringWake: true)
        XCTAssertFalse(isDue)
        XCTAssertNil(clock.waitForSleeper(deadlineAtOrBefore: ms(5), timeout: .milliseconds(50)), "not woken before the wake is paid")

        scheduler.wakeTimingThreadIfOwed()
        XCTAssertNotNil(clock.waitForSleeper(deadlineAtOrBefore: ms(5)), "woken, it sleeps toward 5 ms")
        clock.advance(to: ms(5))
        wait(for: [early], timeout: 10)
    }

    func testIdleThreadPicksUpNewCommandsAndStopKeepsTheRestQueued() throws {
        let clock = VirtualClock(sleepAdvancesTime: false)
        let scheduler = DeadlineScheduler(clock: clock)
        let ran = expectation(description: "command ran")
        scheduler.startThread()
        scheduler.schedule(at: ms(2), class: .control, costKey: "k") { ran.fulfill() }
        XCTAssertNotNil(clock.waitForSleeper(deadlineAtOrBefore: ms(2)))
        clock.advance(to: ms(2))
        wait(for: [ran], timeout: 10)

        scheduler.schedule(at: ms(50), class: .control, costKey: "k") {}
        XCTAssertNotNil(clock.waitForSleeper(deadlineAtOrBefore: ms(50)))
        scheduler.stopThread()
        XCTAssertEqual(scheduler.pendingCount, 1, "stopping leaves pending commands queued")
        XCTAssertEqual(scheduler.metrics.dispatched, 1)
    }

    func testStopThreadFromAnActionDoesNotDeadlock() {
        let clock = VirtualClock(sleepAdvancesTime: false)
        let scheduler = DeadlineScheduler(clock: clock)
        let ran = expectation(description: "stopping action ran")
        scheduler.schedule(at: ms(1), class: .control, costKey: "k") {
            scheduler.stopThread()
            ran.fulfill()
        }
        scheduler.startThread()
        XCTAssertNotNil(clock.waitForSleeper(deadlineAtOrBefore: ms(1)))
        clock.advance(to: ms(1))
        wait(for: [ran], timeout: 10)
        scheduler.stopThread()
        XCTAssertEqual(scheduler.metrics.dispatched, 1)
    }

    func testClocksWithoutInterruptibleSleepNoticeAnEarlierCommandWithinOneSlice() throws {
        let virtual = VirtualClock(sleepAdvancesTime: false)
        let clock = UninterruptibleClock(virtual)
        let scheduler = DeadlineScheduler(clock: clock)
        let log = ActionLog()
        let early = expectation(description: "early command ran")
        scheduler.schedule(at: ms(10), class: .transient, costKey: "k", log.action("late", clock: virtual))
        // A slice on this clock cannot be cut short, so the thread is stopped by an action of its own.
        let stopped = expectation(description: "stopping action ran")
        scheduler.schedule(at: ms(2), class: .control, costKey: "stop") {
            scheduler.stopThread()
            stopped.fulfill()
        }
        scheduler.startThread()
        XCTAssertEqual(virtual.waitForSleeper(), ms(1), "sleeps in one-millisecond slices")

        scheduler.schedule(at: ms(1.5), class: .transient, costKey: "k") {
            log.append("early", at: virtual.now)
            early.fulfill()
        }
        virtual.advance(to: ms(1))
        XCTAssertNotNil(virtual.waitForSleeper(deadlineAtOrBefore: ms(1.5)), "the next slice ends at the earlier command")
        virtual.advance(to: ms(1.5))
        wait(for: [early], timeout: 10)
        XCTAssertEqual(log.entries, [.init(label: "early", time: ms(1.5))])

        XCTAssertNotNil(virtual.waitForSleeper(deadlineAtOrBefore: ms(2)))
        virtual.advance(to: ms(2))
        wait(for: [stopped], timeout: 10)
        scheduler.stopThread()
        XCTAssertEqual(scheduler.pendingCount, 1, "the 10 ms command stays queued")
    }
}

/// A clock that only has the plain `MonotonicClock` sleep, to exercise the scheduler's fallback.
private final class UninterruptibleClock: MonotonicClock, @unchecked Sendable {
    private let base: VirtualClock

    init(_ base: VirtualClock) {
        self.base = base
    }

    var now: MonotonicInstant { base.now }

    func sleep(until deadline: MonotonicInstant) {
        base.sleep(until: deadline)
    }
}


/// The immediate path: a command already due when it is scheduled is not handed to the timing
/// thread (a sleep/wake round trip) but runs on the caller's thread, one dispatcher at a time.
final class DeadlineSchedulerImmediatePathTests: XCTestCase {
    func testCommandDueWhenScheduledRunsOnTheCallersThreadBeforeScheduleReturns() {
        let clock = VirtualClock(sleepAdvancesTime: false)
        clock.advance(to: ms(7))
        let scheduler = DeadlineScheduler(clock: clock)
        scheduler.startThread()
        defer { scheduler.stopThread() }
        // Until the timing thread waits, it would take a due command itself when it first looks
        // (run once, still on one thread at a time); once it waits, nothing wakes it for one.
        while !scheduler.isThreadReady { Thread.sleep(forTimeInterval: 0.001) }
        let caller = Thread.current
        let runner = ThreadRecord()
        let log = ActionLog()
        scheduler.schedule(at: ms(7), class: .transient, costKey: "k") {
            runner.thread = Thread.current
            log.append("now", at: clock.now)
        }
        XCTAssertEqual(log.entries, [.init(label: "now", time: ms(7))], "ran before schedule returned")
        XCTAssertTrue(runner.thread === caller)
        XCTAssertEqual(scheduler.metrics.dispatched, 1)
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func testWithoutATimingThreadADueCommandWaitsForRun() {
        let clock = VirtualClock()
        let scheduler = DeadlineScheduler(clock: clock)
        let log = ActionLog()
        scheduler.schedule(at: .zero, class: .transient, costKey: "k", log.action("due", clock: clock))
        XCTAssertEqual(log.entries, [], "virtual-time tests keep replaying with run(until:)")
        scheduler.run(until: ms(1))
        XCTAssertEqual(log.labels, ["due"])
    }

    func testDueCommandWaitsForTheThreadThatIsDispatchingAndRunsRightAfterIt() throws {
        let clock = VirtualClock(sleepAdvancesTime: false)
        let scheduler = DeadlineScheduler(clock: clock)
        let release = DispatchSemaphore(value: 0)
        let blocking = expectation(description: "the timing thread runs the first action")
        let second = expectation(description: "the second action ran")
        let concurrency = ConcurrencyProbe()
        let runner = ThreadRecord()
        scheduler.schedule(at: ms(1), class: .control, costKey: "k") {
            concurrency.enter()
            blocking.fulfill()
            release.wait()
            concurrency.leave()
        }
        scheduler.startThread()
        defer { scheduler.stopThread() }
        XCTAssertNotNil(clock.waitForSleeper(deadlineAtOrBefore: ms(1)))
        clock.advance(to: ms(1))
        wait(for: [blocking], timeout: 10)

        scheduler.schedule(at: ms(1), class: .control, costKey: "k") {
            concurrency.enter()
            runner.thread = Thread.current
            concurrency.leave()
            second.fulfill()
        }
        XCTAssertNil(runner.thread, "another thread holds the dispatch role: the caller does not run actions beside it")
        release.signal()
        wait(for: [second], timeout: 10)
        XCTAssertFalse(runner.thread === Thread.current, "the timing thread ran it, without sleeping first")
        XCTAssertEqual(concurrency.maximum, 1, "one action at a time")
        // The count goes up when an action has returned, after it fulfilled the expectation: read
        // it once the timing thread has ended.
        scheduler.stopThread()
        XCTAssertEqual(scheduler.metrics.dispatched, 2)
    }
}

/// The thread an action ran on, handed to the test.
private final class ThreadRecord: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Thread?

    var thread: Thread? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

/// How many actions ran at once, at most.
private final class ConcurrencyProbe: @unchecked Sendable {
    private let lock = NSLock()
    private var running = 0
    private var peak = 0

    var maximum: Int { lock.withLock { peak } }

    func enter() {
        lock.withLock {
            running += 1
            peak = max(peak, running)
        }
    }

    func leave() {
        lock.withLock { running -= 1 }
    }
}
