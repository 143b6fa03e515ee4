import ActuatorHAL
import HardwareMocks
import XCTest
@testable import HapticRuntime

final class DeadlineSchedulerLatePolicyTests: XCTestCase {
    func testTransientLaterThanToleranceIsDroppedAndCounted() {
        let clock = VirtualClock()
        let scheduler = DeadlineScheduler(clock: clock, latePolicy: LatePolicy(transientTolerance: .milliseconds(3)))
        let log = ActionLog()
        scheduler.schedule(at: ms(1), class: .transient, costKey: "k", log.action("4 ms late", clock: clock))
        scheduler.schedule(at: ms(2), class: .transient, costKey: "k", log.action("3 ms late", clock: clock))
        scheduler.schedule(at: ms(3.5), class: .transient, costKey: "k", log.action("1.5 ms late", clock: clock))
        clock.advance(to: ms(5))
        scheduler.run(until: ms(5))
        XCTAssertEqual(log.labels, ["3 ms late", "1.5 ms late"], "exactly the tolerance still runs")
        let metrics = scheduler.metrics
        XCTAssertEqual(metrics.droppedLate, 1)
        XCTAssertEqual(metrics.dispatched, 2)
        XCTAssertEqual(metrics.lateness.count, 2)
        XCTAssertEqual(metrics.lateness.maximum, .milliseconds(3))
        XCTAssertEqual(metrics.lateness.minimum, .microseconds(1_500))
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    /// Housekeeping (a status poll, an idle timer) runs however late, like a control, and its
    /// lateness — the kernel's wake-up, which the timing thread does not aim at — stays out of
    /// the lateness figures.
    func testLateHousekeepingRunsAndIsNotCountedAsLate() {
        let clock = VirtualClock()
        let scheduler = DeadlineScheduler(clock: clock, latePolicy: LatePolicy(transientTolerance: .milliseconds(3)))
        let log = ActionLog()
        scheduler.schedule(at: ms(1), class: .housekeeping, costKey: "main/standby", log.action("standby", clock: clock))
        scheduler.schedule(at: ms(1), class: .control, costKey: "main/stop", log.action("stop", clock: clock))
        clock.advance(to: ms(50))
        scheduler.run(until: ms(60))
        XCTAssertEqual(log.labels, ["standby", "stop"])
        let metrics = scheduler.metrics
        XCTAssertEqual(metrics.dispatched, 2)
        XCTAssertEqual(metrics.droppedLate, 0)
        XCTAssertEqual(metrics.lateness.count, 1, "only the stop's")
        XCTAssertEqual(metrics.lateness.maximum, .milliseconds(49))
    }

    func testAnEarlierLongActionMakesTheNextTransientLate() {
        let clock = VirtualClock()
        let scheduler = DeadlineScheduler(clock: clock)
        let log = ActionLog()
        scheduler.schedule(at: ms(1), class: .control, costKey: "reset", log.action("reset", clock: clock, cost: .milliseconds(5)))
        scheduler.schedule(at: ms(2), class: .transient, costKey: "click", log.action("click", clock: clock))
        scheduler.schedule(at: ms(2), class: .control, costKey: "power", log.action("power", clock: clock))
        scheduler.run(until: ms(10))
        XCTAssertEqual(log.labels, ["reset", "power"])
        XCTAssertEqual(scheduler.metrics.droppedLate, 1)
    }

    func testStreamResyncsToItsNewestDueValue() {
        let clock = VirtualClock()
        let scheduler = DeadlineScheduler(clock: clock)
        let log = ActionLog()
        let amplitude = StreamID("main/amplitude")
        for time in [1.0, 2.0, 3.0, 4.0] {
            scheduler.schedule(at: ms(time), class: .stream(amplitude), costKey: "rtp", log.action("amp \(Int(time))", clock: clock))
        }
        scheduler.schedule(at: ms(1.5), class: .stream(StreamID("main/frequency")), costKey: "rtp", log.action("freq", clock: clock))
        clock.advance(to: ms(3.5))
        scheduler.run(until: ms(3.5))
        XCTAssertEqual(log.labels, ["freq", "amp 3"], "late stream values are not replayed, other streams are untouched")
        XCTAssertEqual(scheduler.metrics.resynced, 2)
        XCTAssertEqual(scheduler.metrics.droppedLate, 0)
        scheduler.run(until: ms(5))
        XCTAssertEqual(log.entries.last, .init(label: "amp 4", time: ms(4)))
    }

    func testControlRunsHoweverLate() {
        let clock = VirtualClock()
        let scheduler = DeadlineScheduler(clock: clock)
        let log = ActionLog()
        scheduler.schedule(at: ms(1), class: .control, costKey: "power", log.action("standby", clock: clock))
        scheduler.schedule(at: ms(2), class: .control, costKey: "power", log.action("stop", clock: clock))
        clock.advance(to: ms(1_000))
        scheduler.run(until: ms(1_000))
        XCTAssertEqual(log.labels, ["standby", "stop"])
        XCTAssertEqual(scheduler.metrics.lateness.maximum, .milliseconds(999))
        XCTAssertEqual(scheduler.metrics.droppedLate, 0)
    }

    func testErrorsReachTheHandlerAreCountedAndDoNotStopLaterCommands() {
        let clock = VirtualClock()
        let scheduler = DeadlineScheduler(clock: clock)
        let log = ActionLog()
        let reported = ErrorLog()
        scheduler.errorHandler = { error, costKey in reported.append(error, costKey) }
        scheduler.schedule(at: ms(1), class: .transient, costKey: "main/go") {
            clock.advance(by: .milliseconds(7))
            throw InjectedActionError(tag: 7)
        }
        scheduler.schedule(at: ms(20), class: .transient, costKey: "main/go", log.action("after", clock: clock))
        scheduler.run(until: ms(30))
        XCTAssertEqual(reported.entries.count, 1)
        XCTAssertEqual(reported.entries.first?.error as? InjectedActionError, InjectedActionError(tag: 7))
        XCTAssertEqual(reported.entries.first?.costKey, "main/go")
        XCTAssertEqual(log.entries, [.init(label: "after", time: ms(20))], "a failed action's duration is not learned")
        let metrics = scheduler.metrics
        XCTAssertEqual(metrics.errors, 1)
        XCTAssertEqual(metrics.dispatched, 2)
    }
}
