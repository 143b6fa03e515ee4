import ActuatorHAL
import ActuatorHALLinux
import HardwareMocks
import XCTest
@testable import HapticRuntime

/// `player.start()` on a ready actuator while the timing thread runs: content due at once is
/// written by the caller's thread before `start` returns, not handed to the timing thread.
/// On CLOCK_MONOTONIC with a zero-cost bus, as in `hapticboard bench`; nothing here is timed.
final class ImmediateStartTests: XCTestCase {
    func testStartingAClickOnAReadyChipWritesTheBusBeforeStartReturns() throws {
        let clock = SystemMonotonicClock()
        let chip = ZeroCostChip(name: "main", configuration: engineTestLRA, wall: clock)
        let scheduler = DeadlineScheduler(clock: clock)
        // Idle timers far away and no status poll: the timing thread sleeps toward nothing nearby.
        let engine = HapticEngine(
            actuators: [EngineActuator(
                chip.actuator, name: "main", idleTimeouts: IdleTimeouts(standby: .seconds(3_600), sleep: .seconds(7_200)), statusPollInterval: nil
            )],
            clock: clock, scheduler: scheduler
        )
        try engine.start()
        defer { engine.stop() }

        // The first click wakes and prepares the chip, run on this thread: when the timing thread
        // starts it has nothing to do but sleep toward the idle timers, so nothing holds the
        // dispatch role when the measured click starts.
        let first = try engine.makePlayer(with: TestPatterns.taps(at: [0]))
        try first.start(atTime: 0)
        while first.isPlaying { scheduler.run(until: clock.now + .milliseconds(10)) }
        XCTAssertEqual(chip.actuator.powerState, .ready)
        scheduler.startThread()
        defer { scheduler.stopThread() }

        chip.bus.arm()
        let click = try engine.makePlayer(with: TestPatterns.taps(at: [0]))
        try click.start(atTime: 0)
        XCTAssertNotNil(chip.bus.waitForWrite(patience: .zero), "the click's first register write happened inside start()")
    }
}
