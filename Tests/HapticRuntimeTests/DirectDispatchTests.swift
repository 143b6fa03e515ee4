import ActuatorHAL
import HardwareMocks
import XCTest
@testable import HapticRuntime

/// The scheduler's direct path (`DeadlineScheduler+Direct`): a caller holding the dispatch role
/// runs a command due now without queueing it, in the order the queue would have, and it is
/// counted, timed and learned as a dispatched one. On a `VirtualClock` whose sleeps block: nothing
/// here depends on wall time.
final class DirectDispatchTests: XCTestCase {
    func testTheDirectPathIsRefusedWithoutATimingThread() {
        // `run(until:)` replays a virtual-clock schedule in its own order: nothing may jump it.
        let scheduler = DeadlineScheduler(clock: VirtualClock(sleepAdvancesTime: false))
        XCTAssertFalse(scheduler.beginDirectDispatch())
    }

    func testQueuedCommandsAlreadyDueRunBeforeAnythingDirect() throws {
        let (clock, scheduler) = runningScheduler()
        defer { scheduler.stopThread() }
        let ran = ActionLog()
        // Due, and left queued as the engine leaves it until its locked section ends.
        let (_, isDue) = scheduler.enqueue(at: ms(90), class: .control, costKey: "k", action: .closure { ran.append("queued", at: clock.now) }, deferringWake: true)
        XCTAssertTrue(isDue)

        XCTAssertFalse(scheduler.beginDirectDispatch(), "a due command is waiting: it goes first")
        scheduler.runDueCommandsOnCaller()
        XCTAssertEqual(ran.entries.map(\.label), ["queued"])

        XCTAssertTrue(scheduler.beginDirectDispatch())
        XCTAssertFalse(scheduler.beginDirectDispatch(), "one holder of the dispatch role at a time")
        scheduler.endDirectDispatch()
        XCTAssertTrue(scheduler.beginDirectDispatch(), "given back, it can be taken again")
        scheduler.endDirectDispatch()
    }

    func testACancelledDueCommandDoesNotHoldTheDirectPathBack() throws {
        let (_, scheduler) = runningScheduler()
        defer { scheduler.stopThread() }
        // A start cancels its actuator's idle timers: cancelled, they hold nothing back, nor does
        // a live command not yet due.
        let (cancelled, _) = scheduler.enqueue(at: ms(80), class: .control, costKey: "k", action: .closure {}, deferringWake: true)
        _ = scheduler.enqueue(at: ms(500), class: .control, costKey: "later", action: .closure {}, deferringWake: true)
        scheduler.cancel(cancelled)
        XCTAssertTrue(scheduler.beginDirectDispatch())
        scheduler.endDirectDispatch()
    }

    func testALiveDueCommandBehindACancelledOneHoldsTheDirectPathBack() throws {
        let (_, scheduler) = runningScheduler()
        defer { scheduler.stopThread() }
        let (cancelled, _) = scheduler.enqueue(at: ms(85), class: .control, costKey: "k", action: .closure {}, deferringWake: true)
        _ = scheduler.enqueue(at: ms(90), class: .control, costKey: "k", action: .closure {}, deferringWake: true)
        scheduler.cancel(cancelled)
        XCTAssertFalse(scheduler.beginDirectDispatch())
    }

    func testACommandIsDueOnceItsDeadlineLessItsLeadHasCome() throws {
        let clock = VirtualClock(sleepAdvancesTime: false)
        clock.advance(to: ms(100))
        let scheduler = DeadlineScheduler(clock: clock)
        // A key never measured: its lead is the expected cost.
        XCTAssertEqual(scheduler.directDispatchInstant(deadline: ms(102), costKey: "k", expectedCost: .milliseconds(2)), ms(100))
        XCTAssertEqual(scheduler.directDispatchInstant(deadline: ms(101), costKey: "k", expectedCost: .milliseconds(2)), ms(99))
        XCTAssertNil(scheduler.directDispatchInstant(deadline: ms(103), costKey: "k", expectedCost: .milliseconds(2)))
    }

    func testADirectRunIsCountedTimedAndLearnedAsADispatchedOne() throws {
        let (clock, scheduler) = runningScheduler()
        defer { scheduler.stopThread() }
        XCTAssertTrue(scheduler.beginDirectDispatch())
        let failure = scheduler.runDirectly(dispatchedAt: ms(99), class: .control, costKey: "write", expectedCost: .zero) {
            // The write takes 300 µs.
            clock.advance(to: clock.now + .microseconds(300))
        }
        XCTAssertNil(failure)
        let thrown = scheduler.runDirectly(dispatchedAt: clock.now, class: .control, costKey: "failing", expectedCost: .zero) {
            clock.advance(to: clock.now + .microseconds(700))
            throw I2CError.noAcknowledge(bus: "sim", address: SimulatedBoard.chipAddress)
        }
        scheduler.endDirectDispatch()

        XCTAssertNotNil(thrown, "the error goes back to the caller")
        let metrics = scheduler.metrics
        XCTAssertEqual(metrics.dispatched, 2)
        XCTAssertEqual(metrics.ranDirectly, 2)
        XCTAssertEqual(metrics.errors, 1)
        XCTAssertEqual(metrics.lateness.count, 2)
        XCTAssertEqual(metrics.lateness.maximum, .milliseconds(1), "started 1 ms after its dispatch instant")
        XCTAssertEqual(scheduler.lead(for: "write"), .microseconds(300), "its duration is its key's lead")
        XCTAssertEqual(scheduler.lead(for: "failing"), .zero, "a failure teaches nothing about the cost")
    }

    /// A scheduler on a virtual clock at 100 ms whose sleeps wait for the test, its timing thread
    /// started and waiting for work: stop it when done.
    private func runningScheduler() -> (VirtualClock, DeadlineScheduler) {
        let clock = VirtualClock(sleepAdvancesTime: false)
        clock.advance(to: ms(100))
        let scheduler = DeadlineScheduler(clock: clock)
        scheduler.startThread()
        // Ready is set under the lock the thread keeps until it waits: once it reads true, the
        // thread has looked at the empty queue and waits, and a command queued without waking it
        // stays queued for the test.
        while !scheduler.isThreadReady { sched_yield() }
        return (clock, scheduler)
    }
}
