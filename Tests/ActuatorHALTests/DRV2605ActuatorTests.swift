import ActuatorHAL
import HardwareMocks
import SystemPackage
import XCTest

final class DRV2605ActuatorTests: XCTestCase {
    private func makeActuator(_ board: SimulatedBoard = SimulatedBoard(), configuration: DRV2605Configuration = simLRA) -> (SimulatedBoard, DRV2605Actuator) {
        (board, DRV2605Actuator(name: "main", driver: board.makeDriver(), configuration: configuration))
    }

    func testEveryTransitionLandsWithinItsBudget() throws {
        let (board, actuator) = makeActuator()
        let wake = try actuator.wake()
        XCTAssertEqual(wake.from, .off)
        XCTAssertEqual(wake.to, .standby)
        XCTAssertFalse(wake.overran, "\(wake)")
        XCTAssertGreaterThanOrEqual(wake.elapsed, DRV2605.enableSettleTime)
        XCTAssertEqual(board.chip.register(0x01), 0x40)
        XCTAssertEqual(board.chip.register(0x16), 0x53)

        let prepare = try actuator.prepare(for: .romSequence)
        XCTAssertEqual(prepare.to, .ready)
        XCTAssertFalse(prepare.overran, "\(prepare)")
        XCTAssertEqual(board.chip.register(0x01), 0x00)

        let toRealtime = try actuator.prepare(for: .realtimeAmplitude)
        XCTAssertFalse(toRealtime.overran, "\(toRealtime)")
        XCTAssertEqual(board.chip.register(0x01), 0x05)
        XCTAssertEqual(actuator.preparedMode, .realtimeAmplitude)

        let standby = try actuator.standby()
        XCTAssertEqual(standby.to, .standby)
        XCTAssertFalse(standby.overran, "\(standby)")
        XCTAssertEqual(board.chip.register(0x01), 0x40)

        let sleep = try actuator.sleep()
        XCTAssertEqual(sleep.to, .off)
        XCTAssertFalse(sleep.overran, "\(sleep)")
        XCTAssertEqual(board.enableLine.level, .low)
        XCTAssertEqual(actuator.overrunCount, 0)
    }

    func testBudgetsAreTheDatasheetDelaysPlusBusCost() {
        let (_, actuator) = makeActuator()
        // One register write is 29 SCL cycles: 72.5 µs at 400 kHz; a read is 39 cycles, 97.5 µs.
        let write = Duration.nanoseconds(72_500)
        let read = Duration.nanoseconds(97_500)
        // Nine configuration registers for the sim LRA on a DRV2605L: STATUS + 9 reads, MODE + 9 + MODE writes.
        XCTAssertEqual(actuator.budget(for: .wake), .microseconds(250) + read * 10 + write * 11)
        XCTAssertEqual(actuator.budget(for: .prepare), DRV2605Actuator.standbyExitAllowance + write * 3)
        XCTAssertEqual(actuator.budget(for: .standby), write * 3)
        XCTAssertEqual(actuator.capabilities.amplitudeUpdateCost, write)
    }

    func testRepeatedTransitionsCostNothing() throws {
        let (board, actuator) = makeActuator()
        try actuator.prepare(for: .romSequence)
        board.bus.clearLog()
        let again = try actuator.prepare(for: .romSequence)
        XCTAssertEqual(again.elapsed, .zero)
        XCTAssertEqual(try actuator.wake().elapsed, .zero)
        XCTAssertTrue(board.bus.log.isEmpty)
    }

    func testPrepareFromOffWakesFirstWithinTheCombinedBudget() throws {
        let (_, actuator) = makeActuator()
        let report = try actuator.prepare(for: .realtimeAmplitude)
        XCTAssertEqual(report.from, .off)
        XCTAssertEqual(report.to, .ready)
        XCTAssertEqual(report.budget, actuator.budget(for: .wake) + actuator.budget(for: .prepare))
        XCTAssertFalse(report.overran)
    }

    func testAnOverrunIsReported() throws {
        let (board, actuator) = makeActuator()
        // One adapter timeout during wake: retried, but it costs 25 ms against a ≈ 2.6 ms budget.
        board.bus.injectError(.timeout(bus: "sim", address: 0x5A), onTransfer: 1)
        let report = try actuator.wake()
        XCTAssertTrue(report.overran)
        XCTAssertEqual(actuator.overrunCount, 1)
        XCTAssertEqual(actuator.lastTransition, report)
    }

    func testWakeReadsBackAndReappliesConfigurationAndCalibration() throws {
        let (board, actuator) = makeActuator()
        let calibration = try actuator.calibrate()
        XCTAssertEqual(actuator.powerState, .standby)
        try actuator.sleep()
        // EN low lost the register file.
        XCTAssertEqual(board.chip.register(0x16), 0x3E)
        board.bus.clearLog()
        try actuator.wake()
        XCTAssertTrue(actuator.lastWakeReapplied)
        XCTAssertEqual(board.chip.register(0x16), 0x53)
        XCTAssertEqual(board.chip.register(0x18), calibration.compensation)
        XCTAssertEqual(board.chip.register(0x19), calibration.backEMF)
        XCTAssertEqual(board.chip.register(0x1A) & 0x03, calibration.backEMFGain)
        XCTAssertFalse(board.bus.registerTrace.contains("GO←0x01"), "re-applied, not recalibrated")
        XCTAssertEqual(Array(board.bus.registerTrace.prefix(2)), ["STATUS?", "FEEDBACK_CONTROL?"])
    }

    func testWakeFailureLeavesTheChipOff() {
        let (board, actuator) = makeActuator()
        board.bus.injectNoAcknowledge(from: 0x5A)
        XCTAssertThrowsError(try actuator.wake()) { error in
            guard case .bus(.status, .noAcknowledge, 1)? = error as? DRV2605Error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(actuator.powerState, .off)
        XCTAssertEqual(board.enableLine.level, .low)
    }

    func testPlayPreparesAndStartsTheSequence() throws {
        let (board, actuator) = makeActuator()
        try actuator.wake()
        try actuator.play(effects: [.effect(14), .wait(.milliseconds(50)), .effect(1)])
        XCTAssertEqual(actuator.powerState, .ready)
        XCTAssertEqual(board.chip.register(0x04), 14)
        XCTAssertTrue(try actuator.status().isPlaying)
        board.clock.advance(by: .milliseconds(5))
        XCTAssertNotEqual(board.chip.drive.level(at: board.clock.now).amplitude, 0)
        try actuator.stop()
        XCTAssertFalse(try actuator.status().isPlaying)
        XCTAssertEqual(actuator.powerState, .ready)
    }

    func testInvalidEffectsAreRefusedBeforeAnyBusTraffic() {
        let (board, actuator) = makeActuator()
        XCTAssertThrowsError(try actuator.play(effects: [.effect(200)])) { error in
            XCTAssertEqual(error as? DRV2605Error, .invalidSequence(.effectOutOfRange(slot: 1, id: 200)))
        }
        XCTAssertTrue(board.bus.log.isEmpty)
    }

    func testSetAmplitudeStreamsRTP() throws {
        let (board, actuator) = makeActuator()
        try actuator.setAmplitude(0.5)
        XCTAssertEqual(actuator.preparedMode, .realtimeAmplitude)
        XCTAssertEqual(board.chip.register(0x02), 64)
        XCTAssertEqual(board.chip.drive.level(at: board.clock.now).amplitude, 64.0 / 127, accuracy: 1e-9)
        // Closed loop: negative amplitude is clamped to zero.
        try actuator.setAmplitude(-0.7)
        XCTAssertEqual(board.chip.register(0x02), 0)
        XCTAssertFalse(actuator.capabilities.supportsSignedAmplitude)
        XCTAssertThrowsError(try actuator.setAmplitude(.infinity))
    }

    func testAFailedAmplitudeWriteStopsTheOutputBeforeRethrowing() throws {
        let (board, actuator) = makeActuator()
        try actuator.setAmplitude(0.8)
        let eio = I2CError.transfer(bus: "sim", address: 0x5A, errno: .ioError)
        board.bus.injectError(eio, onTransfer: 1, times: 4)
        XCTAssertThrowsError(try actuator.setAmplitude(0.3)) { error in
            XCTAssertEqual(error as? DRV2605Error, .bus(register: .realtimeInput, eio, attempts: 4))
        }
        XCTAssertEqual(board.chip.register(0x02), 0)
        XCTAssertEqual(board.chip.drive.level(at: board.clock.now).amplitude, 0)
    }

    func testAFailedGoStopsTheSequencerBeforeRethrowing() throws {
        let (board, actuator) = makeActuator()
        try actuator.prepare(for: .romSequence)
        // Three effects and the terminator are written in one transfer, GO fails once (not retried), GO reads back clear.
        board.bus.injectError(.transfer(bus: "sim", address: 0x5A, errno: .ioError), onTransfer: 2)
        XCTAssertThrowsError(try actuator.play(effects: [.effect(1), .effect(2), .effect(3)]))
        XCTAssertEqual(Array(board.bus.registerTrace.suffix(4)), ["GO←0x01!", "GO?", "GO←0x00", "RTP_INPUT←0x00"])
        XCTAssertEqual(board.chip.register(0x0C), 0)
    }

    /// Loading the slots again is harmless, so a load that failed transiently is retried whole.
    func testAFailedLoadIsRetriedBeforeGo() throws {
        let (board, actuator) = makeActuator()
        try actuator.prepare(for: .romSequence)
        board.bus.clearLog()
        board.bus.injectError(.transfer(bus: "sim", address: 0x5A, errno: .ioError), onTransfer: 1)
        try actuator.play(effects: [.effect(14), .wait(.milliseconds(20)), .effect(1)])
        XCTAssertEqual(board.bus.registerTrace, ["WAV_FRM_SEQ1←0x0E,0x82,0x01,0x00!", "WAV_FRM_SEQ1←0x0E,0x82,0x01,0x00", "GO←0x01"])
        XCTAssertEqual((0x04...0x07).map { board.chip.register(UInt8($0)) }, [0x0E, 0x82, 0x01, 0x00])
    }

    /// What a trigger is expected to cost is the wire time of what it writes: the slots in one write, then GO.
    func testATriggersExpectedCostIsItsLoadAndGo() throws {
        let (board, actuator) = makeActuator()
        let go = board.bus.wireTime(of: [.write([0x0C, 1])])
        XCTAssertGreaterThan(go, .zero, "a bus with a speed")
        for steps in [1, 3, 7, 8] {
            let slots = [UInt8](repeating: 1, count: DRV2605Sequence.slotsLoaded(steps: steps))
            let written = board.bus.wireTime(of: [.write([0x04] + slots)]) + go
            XCTAssertEqual(actuator.capabilities.romTriggerCost.nanoseconds(slots: slots.count), written.nanoseconds, "\(steps) steps")
        }
    }

    func testWhenTheBusIsDeadTheOutputIsStoppedByDroppingEN() throws {
        let (board, actuator) = makeActuator()
        try actuator.setAmplitude(0.8)
        board.bus.isStuck = true
        let stuckAt = board.clock.now
        let transfersBefore = board.bus.log.count
        XCTAssertThrowsError(try actuator.setAmplitude(0.3)) { error in
            XCTAssertEqual((error as? DRV2605Error)?.timedOutBus, board.bus.name)
        }
        XCTAssertEqual(board.enableLine.level, .low)
        XCTAssertEqual(actuator.powerState, .off)
        XCTAssertEqual(board.chip.drive.level(at: board.clock.now).amplitude, 0)
        // EN drops as soon as the write has timed out through its retries: a stop over the stuck
        // bus would time out through its own retries first, a tenth of a second per write.
        let attempts = DRV2605RetryPolicy().retries + 1
        XCTAssertEqual(board.bus.log.count - transfersBefore, attempts, "only the failing write's attempts")
        let enLow = try XCTUnwrap(board.enableLine.history.last { $0.level == .low }).time
        XCTAssertLessThanOrEqual(enLow - stuckAt, board.bus.stuckTimeout * attempts + DRV2605RetryPolicy().backoff * (attempts - 1))
    }

    func testAFailureThatIsNotATimeoutStillStopsOverTheBusAndKeepsEN() throws {
        let (board, actuator) = makeActuator()
        try actuator.setAmplitude(0.8)
        board.bus.injectError(.noAcknowledge(bus: board.bus.name, address: 0x5A), onTransfer: 1)
        XCTAssertThrowsError(try actuator.setAmplitude(0.3)) { error in
            XCTAssertNil((error as? DRV2605Error)?.timedOutBus)
        }
        XCTAssertEqual(board.enableLine.level, .high, "a chip that answers again keeps its configuration")
        XCTAssertEqual(board.chip.register(0x02), 0)
        XCTAssertEqual(board.chip.drive.level(at: board.clock.now).amplitude, 0)
    }

    func testStatusSurfacesFaultsAndOffNeedsNoBus() throws {
        let (board, actuator) = makeActuator()
        XCTAssertEqual(try actuator.status(), ActuatorStatus(powerState: .off, isPlaying: false, faults: []))
        XCTAssertTrue(board.bus.log.isEmpty)
        try actuator.wake()
        board.chip.injectOverCurrent()
        XCTAssertEqual(try actuator.status().faults, [.overCurrent])
    }

    /// A look at the chip while it is ready is two reads — STATUS with MODE, then GO — and MODE
    /// alone tells a reset there; in standby, where MODE reads its reset value anyway, the
    /// configuration's witness register (RATED_VOLTAGE) is read too.
    func testAStatusLookReadsStatusWithModeAndTheWitnessOnlyInStandby() throws {
        let (board, actuator) = makeActuator()
        let statusWithMode = [I2COperation.write([0x00]), .read(count: 2)]
        let go = [I2COperation.write([0x0C]), .read(count: 1)]
        let witness = [I2COperation.write([0x16]), .read(count: 1)]
        try actuator.prepare(for: .realtimeAmplitude)
        board.bus.clearLog()
        XCTAssertEqual(try actuator.status(), ActuatorStatus(powerState: .ready, isPlaying: false, faults: []))
        XCTAssertEqual(board.bus.log.map(\.operations), [statusWithMode, go])

        try actuator.standby()
        board.bus.clearLog()
        XCTAssertEqual(try actuator.status(), ActuatorStatus(powerState: .standby, isPlaying: false, faults: []))
        XCTAssertEqual(board.bus.log.map(\.operations), [statusWithMode, go, witness])

        // A reset in standby: MODE reads 0x40 as before, RATED_VOLTAGE its reset value.
        board.chip.injectPowerOnReset()
        XCTAssertEqual(try actuator.status(), ActuatorStatus(powerState: .off, isPlaying: false, faults: [.registersReset]))

        // A reset while ready: MODE is back to standby (0x40), so no witness read is needed.
        try actuator.prepare(for: .romSequence)
        board.chip.injectPowerOnReset()
        board.bus.clearLog()
        XCTAssertEqual(try actuator.status(), ActuatorStatus(powerState: .off, isPlaying: false, faults: [.registersReset]))
        XCTAssertEqual(board.bus.log.map(\.operations), [statusWithMode, go])
    }

    /// A hung calibration stores nothing and leaves the chip configured again, stopped, in standby.
    func testATimedOutCalibrationStoresNothingAndRestoresTheConfiguration() throws {
        let (board, actuator) = makeActuator()
        board.chip.calibrationOutcome = .neverFinishes
        XCTAssertThrowsError(try actuator.calibrate()) { error in
            guard case .calibrationTimeout? = error as? DRV2605Error else { return XCTFail("\(error)") }
        }
        XCTAssertNil(actuator.calibration)
        XCTAssertEqual(actuator.powerState, .standby)
        XCTAssertEqual(board.chip.register(0x16), 0x53, "RATED_VOLTAGE written again after the reset")
        XCTAssertEqual(board.chip.register(0x01), 0x40)
        XCTAssertEqual(board.chip.register(0x0C), 0)
        XCTAssertEqual(board.chip.drive.level(at: board.clock.now).amplitude, 0)
    }

    /// STATUS clears OVER_TEMP when read, and waking reads STATUS to identify the chip: the flag
    /// that read saw is still reported by the next `status()`, once.
    func testAnOverTemperatureSeenWhileWakingIsReported() throws {
        let (board, actuator) = makeActuator()
        try board.enableLine.set(.high)
        board.clock.advance(by: .milliseconds(1))
        board.chip.injectOverTemperature()
        try actuator.wake()
        XCTAssertEqual(board.chip.register(0x00) & 0x02, 0, "the chip cleared OVER_TEMP when identify read it")
        XCTAssertEqual(try actuator.status().faults, [.overTemperature])
        XCTAssertEqual(try actuator.status().faults, [], "reported once")
    }

    func testCalibrationFailureAndDiagnosticsLeaveStandby() throws {
        let (board, actuator) = makeActuator()
        board.chip.calibrationOutcome = .failsDiagnostic
        XCTAssertThrowsError(try actuator.calibrate())
        XCTAssertNil(actuator.calibration)
        XCTAssertEqual(actuator.powerState, .standby)
        try actuator.runDiagnostics()
        board.chip.diagnosticsPass = false
        XCTAssertThrowsError(try actuator.runDiagnostics())
        XCTAssertEqual(actuator.powerState, .standby)
    }

    func testCapabilitiesReflectTheChipAndActuator() throws {
        let (_, lra) = makeActuator()
        XCTAssertEqual(lra.capabilities.romLibrary, .lra)
        XCTAssertEqual(lra.capabilities.resonantFrequency, 175)
        XCTAssertFalse(lra.capabilities.frequencyAdjustable)

        let (board, noROM) = makeActuator(SimulatedBoard(variant: .drv2604L))
        try noROM.wake()
        XCTAssertNil(noROM.capabilities.romLibrary)
        XCTAssertThrowsError(try noROM.play(effects: [.effect(1)])) { error in
            guard case .unsupported(.drv2604L, _)? = error as? DRV2605Error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(board.chip.register(0x0C), 0)
        XCTAssertThrowsError(try noROM.prepare(for: .pcm))
    }
}
