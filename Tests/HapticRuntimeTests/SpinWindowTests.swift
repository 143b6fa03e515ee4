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

    func testAStreamsValueSpinsOnlyTheLastFewMicroseconds() {
        var window = SpinWindow()
        for _ in 0..<200 { window.observe(wakeUpError: .microseconds(80)) }
        XCTAssertGreaterThan(window.margin(beforeStream: false), .microseconds(70), "a transient or control keeps the learned margin")
        XCTAssertEqual(window.margin(beforeStream: true), SpinWindow.streamCeiling)
    }

    func testAStreamsMarginIsNeverMoreThanTheLearnedOne() {
        var window = SpinWindow()
        for _ in 0..<200 { window.observe(wakeUpError: .microseconds(3)) }
        XCTAssertLessThan(window.margin(beforeStream: true), SpinWindow.streamCeiling)
        XCTAssertEqual(window.margin(beforeStream: true), window.margin(beforeStream: false))
    }

    /// The timing thread on a `VirtualClock` whose sleeps block: where it sets its alarm before
    /// each kind of command, with the window still at its initial 150 µs.
    func testTheTimingThreadWakesCloserToAStreamsValueThanToAClick() throws {
        for (commandClass, margin) in [(CommandClass.stream(StreamID("main/amplitude")), SpinWindow.streamCeiling), (.transient, SpinWindow.initial), (.control, SpinWindow.initial)] {
            let clock = VirtualClock(sleepAdvancesTime: false)
            let scheduler = DeadlineScheduler(clock: clock)
            _ = scheduler.schedule(at: ms(10), class: commandClass, costKey: "k") {}
            scheduler.startThread()
            defer { scheduler.stopThread() }
            let alarm = try XCTUnwrap(clock.waitForSleeper(), "\(commandClass): the thread sleeps toward the command")
            XCTAssertEqual(alarm, ms(10) - margin, "\(commandClass)")
        }
    }
}
