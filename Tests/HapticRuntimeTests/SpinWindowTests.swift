import ActuatorHAL
import HardwareMocks
@testable import HapticRuntime
import XCTest

final class SpinWindowTests: XCTestCase {
    func testTheMarginFollowsTheWakeUpErrorsMeanAndDeviation() {
        var window = SpinWindow()
        XCTAssertEqual(window.duration, SpinWindow.initial, "nothing measured yet")
        window.observe(wakeUpError: .microseconds(60))
        // The first sample: mean 60, deviation half of it.
        XCTAssertEqual(window.duration, .microseconds(90))
        for _ in 0..<200 { window.observe(wakeUpError: .microseconds(60)) }
        XCTAssertLessThan(abs((window.duration - .microseconds(60)).nanoseconds), 1_000, "steady wake-ups: the margin is their error")
    }

    func testAValueContinuingAStreamSpinsOnlyTheLastFewMicroseconds() {
        var window = SpinWindow()
        for _ in 0..<200 { window.observe(wakeUpError: .microseconds(80)) }
        XCTAssertGreaterThan(window.margin(for: .onset), .microseconds(70), "an onset keeps the learned margin")
        XCTAssertEqual(window.margin(for: .continuingStream), SpinWindow.streamCeiling)
    }

    func testHousekeepingIsNotSpunFor() {
        var window = SpinWindow()
        for _ in 0..<200 { window.observe(wakeUpError: .microseconds(80)) }
        XCTAssertEqual(window.margin(for: .none), .zero)
    }

    func testAStreamsMarginIsNeverMoreThanTheLearnedOne() {
        var window = SpinWindow()
        for _ in 0..<200 { window.observe(wakeUpError: .microseconds(3)) }
        XCTAssertLessThan(window.margin(for: .continuingStream), SpinWindow.streamCeiling)
        XCTAssertEqual(window.margin(for: .continuingStream), window.margin(for: .onset))
    }

    /// The timing thread on a `VirtualClock` whose sleeps block: where it sets its alarm before
    /// each kind of command, with the window still at its initial 150 µs.
    func testTheTimingThreadAimsAtAClickAControlAndAStreamsFirstValueAlike() throws {
        for commandClass in [CommandClass.stream(StreamID("main/amplitude")), .transient, .control] {
            let clock = VirtualClock(sleepAdvancesTime: false)
            let scheduler = DeadlineScheduler(clock: clock)
            _ = scheduler.schedule(at: ms(10), class: commandClass, costKey: "k") {}
            scheduler.startThread()
            defer { scheduler.stopThread() }
            let alarm = try XCTUnwrap(clock.waitForSleeper(), "\(commandClass): the thread sleeps toward the command")
            XCTAssertEqual(alarm, ms(10) - SpinWindow.initial, "\(commandClass) is an onset")
        }
    }

    /// The engine's bookkeeping (a status poll, an idle timer) is slept to, not spun for; an onset
    /// queued behind it still gets the whole margin.
    func testTheTimingThreadSleepsRightUpToHousekeeping() throws {
        let clock = VirtualClock(sleepAdvancesTime: false)
        let scheduler = DeadlineScheduler(clock: clock)
        let polled = expectation(description: "the poll ran")
        _ = scheduler.schedule(at: ms(10), class: .housekeeping, costKey: "main/status") { polled.fulfill() }
        _ = scheduler.schedule(at: ms(20), class: .transient, costKey: "main/trigger1") {}
        scheduler.startThread()
        defer { scheduler.stopThread() }

        XCTAssertEqual(clock.waitForSleeper(), ms(10), "housekeeping: no margin")
        clock.advance(to: ms(10))
        wait(for: [polled], timeout: 10)
        // The sleep to the poll was a wake-up like any other: the window learned from it.
        XCTAssertEqual(clock.waitForSleeper(deadlineAtOrBefore: ms(20)), ms(20) - scheduler.spinWindow, "the click behind it is an onset")
        XCTAssertGreaterThanOrEqual(scheduler.spinWindow, SpinWindow.minimum)
    }

    /// A stream's value a period after the last wakes with the last 10 µs to spare; one after a
    /// gap longer than `streamContinuationGap` is an onset again.
    func testTheTimingThreadSpinsLittleBeforeAValueContinuingAStream() throws {
        let clock = VirtualClock(sleepAdvancesTime: false)
        let scheduler = DeadlineScheduler(clock: clock)
        let stream = CommandClass.stream(StreamID("main/amplitude"))
        let first = expectation(description: "the first value ran")
        let second = expectation(description: "the second value ran")
        _ = scheduler.schedule(at: ms(10), class: stream, costKey: "k") { first.fulfill() }
        _ = scheduler.schedule(at: ms(11), class: stream, costKey: "k") { second.fulfill() }
        _ = scheduler.schedule(at: ms(40), class: stream, costKey: "k") {}
        scheduler.startThread()
        defer { scheduler.stopThread() }

        XCTAssertEqual(clock.waitForSleeper(), ms(10) - SpinWindow.initial, "the first value is an onset")
        clock.advance(to: ms(10))
        wait(for: [first], timeout: 10)
        XCTAssertEqual(clock.waitForSleeper(deadlineAtOrBefore: ms(11)), ms(11) - SpinWindow.streamCeiling, "a period later it continues the stream")
        clock.advance(to: ms(11))
        wait(for: [second], timeout: 10)
        let gap = try XCTUnwrap(clock.waitForSleeper(deadlineAtOrBefore: ms(40)))
        XCTAssertEqual(gap, ms(40) - scheduler.spinWindow, "29 ms later it starts again: an onset")
        XCTAssertGreaterThan(scheduler.spinWindow, SpinWindow.streamCeiling)
    }
}
