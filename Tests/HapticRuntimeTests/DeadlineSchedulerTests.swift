import ActuatorHAL
import HardwareMocks
import XCTest
@testable import HapticRuntime

final class DeadlineSchedulerTests: XCTestCase {
    func testDispatchesAtDeadlineMinusExpectedCostBeforeAnythingIsMeasured() {
        let clock = VirtualClock()
        let scheduler = DeadlineScheduler(clock: clock)
        let log = ActionLog()
        scheduler.schedule(at: ms(10), class: .transient, costKey: "main/rtp", expectedCost: .microseconds(250), log.action("a", clock: clock))
        XCTAssertEqual(scheduler.lead(for: "main/rtp"), .microseconds(250))
        scheduler.run(until: ms(20))
        XCTAssertEqual(log.entries, [.init(label: "a", time: ms(9.75))])
        XCTAssertEqual(clock.now, ms(20))
    }

    func testLeadIsLearnedFromTheMeasuredDurationSoTheEffectLandsOnTheDeadline() {
        let clock = VirtualClock()
        let scheduler = DeadlineScheduler(clock: clock)
        let log = ActionLog()
        let write = log.action("write", clock: clock, cost: .microseconds(300))
        scheduler.schedule(at: ms(10), class: .stream(StreamID("rtp")), costKey: "main/rtp", write)
        scheduler.run(until: ms(15))
        XCTAssertEqual(log.entries.last?.time, ms(10), "nothing measured yet: lead zero")
        XCTAssertEqual(scheduler.lead(for: "main/rtp"), .microseconds(300), "the first measurement counts fully")

        scheduler.schedule(at: ms(20), class: .stream(StreamID("rtp")), costKey: "main/rtp", write)
        scheduler.run(until: ms(25))
        XCTAssertEqual(log.entries.last?.time, ms(19.7))
        XCTAssertEqual(scheduler.metrics.lateness.maximum, .zero)
        XCTAssertEqual(scheduler.lead(for: "other"), .zero)
    }

    func testSettledLeadMovesByAnEighthOfASurprise() {
        let clock = VirtualClock()
        let scheduler = DeadlineScheduler(clock: clock)
        let log = ActionLog()
        for index in 1...8 {
            scheduler.schedule(at: ms(Double(index)), class: .control, costKey: "bus", log.action("usual", clock: clock, cost: .microseconds(300)))
        }
        scheduler.run(until: ms(10))
        XCTAssertEqual(scheduler.lead(for: "bus"), .microseconds(300))
        scheduler.schedule(at: ms(20), class: .control, costKey: "bus", log.action("slow", clock: clock, cost: .microseconds(1_100)))
        scheduler.run(until: ms(30))
        XCTAssertEqual(scheduler.lead(for: "bus"), .microseconds(400))
        XCTAssertEqual(log.entries.last, .init(label: "slow", time: ms(19.7)))
    }

    func testExpectedCostOfAKeyAlreadyMeasuredIsIgnored() {
        let clock = VirtualClock()
        let scheduler = DeadlineScheduler(clock: clock)
        let log = ActionLog()
        scheduler.schedule(at: ms(1), class: .control, costKey: "bus", log.action("a", clock: clock, cost: .microseconds(100)))
        scheduler.run(until: ms(2))
        scheduler.schedule(at: ms(5), class: .control, costKey: "bus", expectedCost: .milliseconds(2), log.action("b", clock: clock))
        XCTAssertEqual(scheduler.lead(for: "bus"), .microseconds(100))
    }

    func testDeadlineOrderWithScheduleOrderBreakingTies() {
        let clock = VirtualClock()
        let scheduler = DeadlineScheduler(clock: clock)
        let log = ActionLog()
        for (label, time) in [("5", 5.0), ("1", 1.0), ("2a", 2.0), ("3", 3.0), ("2b", 2.0)] {
            scheduler.schedule(at: ms(time), class: .transient, costKey: "k", log.action(label, clock: clock))
        }
        scheduler.run(until: ms(10))
        XCTAssertEqual(log.labels, ["1", "2a", "2b", "3", "5"])
        XCTAssertEqual(log.entries.map(\.time), [ms(1), ms(2), ms(2), ms(3), ms(5)])
        XCTAssertEqual(scheduler.metrics.dispatched, 5)
    }

    func testCostKeysInterleaveByDispatchInstantNotDeadline() {
        let clock = VirtualClock()
        let scheduler = DeadlineScheduler(clock: clock)
        let log = ActionLog()
        scheduler.schedule(at: ms(9), class: .transient, costKey: "fast", log.action("fast", clock: clock))
        scheduler.schedule(at: ms(10), class: .transient, costKey: "slow", expectedCost: .milliseconds(2), log.action("slow", clock: clock))
        scheduler.run(until: ms(10))
        XCTAssertEqual(log.entries, [.init(label: "slow", time: ms(8)), .init(label: "fast", time: ms(9))])
    }

    func testCancelAndCancelAll() {
        let clock = VirtualClock()
        let scheduler = DeadlineScheduler(clock: clock)
        let log = ActionLog()
        scheduler.schedule(at: ms(1), class: .transient, costKey: "k", log.action("kept", clock: clock))
        let cancelled = scheduler.schedule(at: ms(2), class: .control, costKey: "k", log.action("cancelled", clock: clock))
        scheduler.schedule(at: ms(3), class: .transient, costKey: "k", log.action("kept too", clock: clock))
        scheduler.cancel(cancelled)
        XCTAssertEqual(scheduler.pendingCount, 2)
        scheduler.run(until: ms(5))
        XCTAssertEqual(log.labels, ["kept", "kept too"])

        scheduler.schedule(at: ms(6), class: .control, costKey: "k", log.action("gone", clock: clock))
        scheduler.schedule(at: ms(7), class: .transient, costKey: "j", log.action("gone too", clock: clock))
        scheduler.cancelAll()
        XCTAssertEqual(scheduler.pendingCount, 0)
        scheduler.run(until: ms(10))
        XCTAssertEqual(log.labels, ["kept", "kept too"])
        scheduler.cancel(cancelled)
        XCTAssertEqual(scheduler.metrics.dispatched, 2)
    }

    func testActionsMayScheduleMoreCommands() {
        let clock = VirtualClock()
        let scheduler = DeadlineScheduler(clock: clock)
        let log = ActionLog()
        let second = log.action("second", clock: clock)
        scheduler.schedule(at: ms(1), class: .control, costKey: "k") {
            log.append("first", at: clock.now)
            scheduler.schedule(at: ms(2), class: .control, costKey: "k", second)
        }
        scheduler.run(until: ms(3))
        XCTAssertEqual(log.entries, [.init(label: "first", time: ms(1)), .init(label: "second", time: ms(2))])
    }

    func testRunUntilLeavesLaterCommandsQueued() {
        let clock = VirtualClock()
        let scheduler = DeadlineScheduler(clock: clock)
        let log = ActionLog()
        scheduler.schedule(at: ms(10), class: .transient, costKey: "k", log.action("later", clock: clock))
        scheduler.run(until: ms(5))
        XCTAssertEqual(clock.now, ms(5))
        XCTAssertEqual(log.labels, [])
        XCTAssertEqual(scheduler.pendingCount, 1)
        scheduler.run(until: ms(10))
        XCTAssertEqual(log.entries, [.init(label: "later", time: ms(10))])
    }
}
