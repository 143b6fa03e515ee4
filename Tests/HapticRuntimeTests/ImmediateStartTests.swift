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
        let (engine, chip) = try readyEngineWithTimingThread()
        defer { stop(engine) }

        chip.bus.arm()
        let click = try engine.makePlayer(with: TestPatterns.taps(at: [0]))
        let before = engine.scheduler.metrics.ranDirectly
        try click.start(atTime: 0)
        XCTAssertNotNil(chip.bus.waitForWrite(patience: .zero), "the click's first register write happened inside start()")
        // Its mode switch (nothing to do: the chip is in that mode) and its trigger were never queued.
        XCTAssertEqual(engine.scheduler.metrics.ranDirectly - before, 2)
    }

    /// The opening of a start runs on the caller without being queued (`DeadlineScheduler+Direct`);
    /// when its write fails, the fault is handled before anything else of the start runs, as when
    /// the timing thread hands a failed command's error to the engine before the next command.
    func testAFailedOpeningWriteIsHandledBeforeTheRestOfTheStartRuns() throws {
        let (engine, chip) = try readyEngineWithTimingThread()
        defer { stop(engine) }
        let reasons = Collected<HapticEngine.StoppedReason>()
        engine.stoppedHandler = { reasons.append($0) }

        // The click's first transfer finds the chip gone quiet (a missing ACK is not retried).
        chip.board.bus.injectError(.noAcknowledge(bus: "sim", address: SimulatedBoard.chipAddress), onTransfer: 1)
        let failedAt = chip.board.bus.log.count
        let click = try engine.makeAdvancedPlayer(with: TestPatterns.taps(at: [0, 0.002]))
        try click.start(atTime: 0)

        // Handled inside start(), on this thread: the engine stopped for the fault (on this
        // zero-cost rig the chip is then switched off rather than re-initialised).
        XCTAssertEqual(reasons.values.count, 1)
        XCTAssertEqual(engine.scheduler.metrics.errors, 1)
        XCTAssertFalse(click.isPlaying)
        let log = chip.board.bus.log[failedAt...]
        XCTAssertNotNil(log.first?.error, "the first transfer of the start is the one that failed")
        let goSet = log.contains { entry in
            entry.operations.contains { if case .write(let bytes) = $0 { bytes == [DRV2605Register.go.rawValue, 1] } else { false } }
        }
        XCTAssertFalse(goSet, "no sequence of the start was fired after its first write failed")
        XCTAssertEqual(chip.board.chip.register(DRV2605Register.go.rawValue), 0, "GO")
        XCTAssertEqual(chip.board.chip.register(DRV2605Register.realtimeInput.rawValue), 0, "RTP_INPUT")
    }

    /// A start already behind its time finds many values of its amplitude stream due at once: as
    /// the queue does, only the newest is written (`StaleStreamCommands`). The direct path runs the
    /// mode switch and leaves the stream to the queue, whose resync skips the rest.
    func testAStartBehindItsTimeWritesOnlyTheNewestDueLevel() throws {
        let (engine, _) = try readyEngineWithTimingThread()
        defer { stop(engine) }
        // A second-long rise: a new level every update.
        let rise = HapticPattern(
            events: [TestPatterns.continuous(duration: 1, intensity: 1)],
            parameterCurves: [ParameterCurve(.hapticIntensityControl, time: 0, controlPoints: [ControlPoint(time: 0, value: 0.2), ControlPoint(time: 1, value: 1)])]
        )
        let player = try engine.makePlayer(with: rise)
        let before = engine.scheduler.metrics
        // 30 ms ago: the mode switch and the levels of the first 30 ms are due.
        try player.start(atTime: engine.currentTime - 0.03)
        let after = engine.scheduler.metrics
        XCTAssertEqual(after.ranDirectly - before.ranDirectly, 1, "the mode switch ran directly, no level did")
        XCTAssertGreaterThan(after.resynced - before.resynced, 0, "the older due levels were skipped")
        try player.stop(atTime: 0)
    }

    /// An engine on CLOCK_MONOTONIC over a zero-cost chip that one click already woke and
    /// prepared, its timing thread running with nothing nearby to do.
    private func readyEngineWithTimingThread() throws -> (HapticEngine, ZeroCostChip) {
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

        // The first click wakes and prepares the chip, run on this thread: when the timing thread
        // starts it has nothing to do but sleep toward the idle timers, so nothing holds the
        // dispatch role when the measured click starts.
        let first = try engine.makePlayer(with: TestPatterns.taps(at: [0]))
        try first.start(atTime: 0)
        while first.isPlaying { scheduler.run(until: clock.now + .milliseconds(10)) }
        XCTAssertEqual(chip.actuator.powerState, .ready)
        scheduler.startThread()
        return (engine, chip)
    }

    private func stop(_ engine: HapticEngine) {
        engine.stop()
        engine.scheduler.stopThread()
    }
}
