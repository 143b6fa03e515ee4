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
        XCTAssertGreaterThan(window.margin(continuingStream: false), .microseconds(70), "an onset keeps the learned margin")
        XCTAssertEqual(window.margin(continuingStream: true), SpinWindow.streamCeiling)
    }

    func testAStreamsMarginIsNeverMoreThanTheLearnedOne() {
        var window = SpinWindow()
        for _ in 0..<200 { window.observe(wakeUpError: .microseconds(3)) }
        XCTAssertLessThan(window.margin(continuingStream: true), SpinWindow.streamCeiling)
        XCTAssertEqual(window.margin(continuingStream: true), window.margin(continuingStream: false))
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
