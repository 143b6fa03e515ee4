import ActuatorHAL
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
        scheduler.startThread(realtime: .none)
        defer { scheduler.stopThread() }
        try engine.start()
        defer { engine.stop() }

        // The first click wakes and prepares the chip.
        let first = try engine.makeAdvancedPlayer(with: TestPatterns.taps(at: [0]))
        let finished = expectation(description: "the first click ended")
        first.completionHandler = { _ in finished.fulfill() }
        try first.start(atTime: 0)
        wait(for: [finished], timeout: 10)
        XCTAssertEqual(chip.actuator.powerState, .ready)

        chip.bus.arm()
        let click = try engine.makePlayer(with: TestPatterns.taps(at: [0]))
        try click.start(atTime: 0)
        XCTAssertNotNil(chip.bus.waitForWrite(patience: 0), "the click's first register write happened inside start()")
    }
}
