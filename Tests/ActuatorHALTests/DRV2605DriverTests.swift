import ActuatorHAL
import HardwareMocks
import SystemPackage
import XCTest

final class DRV2605DriverTests: XCTestCase {
    func testIdentifiesEveryVariantAfterTheEnableDelay() throws {
        let expected: [(DRV2605Model.Variant, DRV2605Variant)] = [(.drv2605, .drv2605), (.drv2604, .drv2604), (.drv2604L, .drv2604L), (.drv2605L, .drv2605L)]
        for (modelVariant, variant) in expected {
            let board = SimulatedBoard(variant: modelVariant)
            let driver = board.makeDriver()
            try driver.enable()
            XCTAssertEqual(try driver.identify(), variant)
            let enabledAt = try XCTUnwrap(board.enableLine.history.last).time
            XCTAssertGreaterThanOrEqual(board.bus.log[0].time - enabledAt, DRV2605.enableSettleTime)
        }
    }

    func testAnUnknownDeviceIDIsRefusedNamingIdAddressAndBus() {
        // EN is low and the driver does not know about the line: the chip ACKs but reads 0.
        let board = SimulatedBoard()
        let driver = DRV2605(bus: board.bus, clock: board.clock)
        XCTAssertThrowsError(try driver.identify()) { error in
            XCTAssertEqual(error as? DRV2605Error, .unknownDevice(deviceID: 0, address: 0x5A, bus: "sim"))
            XCTAssertTrue("\(error)".contains("DEVICE_ID 0"))
            XCTAssertTrue("\(error)".contains("0x5A on sim"))
        }
    }

    func testRegisterAccessWithENLowIsRefusedWithoutTouchingTheBus() {
        let board = SimulatedBoard()
        let driver = board.makeDriver()
        XCTAssertThrowsError(try driver.readRegister(.status)) { error in
            XCTAssertEqual(error as? DRV2605Error, .disabled(address: 0x5A, bus: "sim"))
        }
        XCTAssertThrowsError(try driver.go())
        XCTAssertThrowsError(try driver.writeRegister(.mode, 0))
        XCTAssertTrue(board.bus.log.isEmpty)
    }

    func testLRAInitialisationFollowsTheDatasheetOrder() throws {
        let board = SimulatedBoard()
        let driver = board.makeDriver()
        XCTAssertTrue(try driver.initialize(simLRA, verifyFirst: false))
        XCTAssertEqual(board.bus.registerTrace, [
            "STATUS?",
            "MODE←0x00",
            "FEEDBACK_CONTROL←0xB6", "RATED_VOLTAGE←0x53", "OD_CLAMP←0x84", "CONTROL4←0x20",
            "CONTROL1←0x98", "CONTROL2←0xF5", "CONTROL3←0x80", "OL_LRA_PERIOD←0x3A", "LIBRARY_SEL←0x06",
            "MODE←0x40",
        ])
        XCTAssertEqual(board.chip.register(0x16), 0x53)
        XCTAssertEqual(board.chip.register(0x20), 0x3A)
        XCTAssertEqual(board.chip.register(0x01), 0x40)
    }

    func testERMInitialisationFollowsTheDatasheetOrder() throws {
        let board = SimulatedBoard()
        let driver = board.makeDriver()
        try driver.initialize(ermClosedLoop, verifyFirst: false)
        XCTAssertEqual(board.bus.registerTrace, [
            "STATUS?",
            "MODE←0x00",
            "FEEDBACK_CONTROL←0x36", "RATED_VOLTAGE←0x8E", "OD_CLAMP←0xAA", "CONTROL4←0x20",
            "CONTROL1←0x93", "CONTROL2←0xF5", "CONTROL3←0x80", "LIBRARY_SEL←0x02", // B: library A is for open loop only; this ERM runs closed loop
            "MODE←0x40",
        ])
    }

    func testOpenLoopConfigurations() throws {
        let board = SimulatedBoard()
        let driver = board.makeDriver()
        var openLRA = simLRA
        openLRA.ratings.loop = .open
        try driver.initialize(openLRA)
        XCTAssertEqual(board.chip.register(0x1D), 0x81)
        XCTAssertEqual(board.chip.register(0x20), 58)
        // The chip now drives at 1 / (58 × 98.46 µs) = 175.1 Hz whatever the actuator's resonance.
        board.chip.lraResonanceHz = 160
        try driver.setMode(.realtimePlayback, standby: false)
        try driver.writeRealtime(signed: 127)
        let frequency = try XCTUnwrap(board.chip.drive.level(at: board.clock.now).frequency)
        XCTAssertEqual(frequency, 175.1, accuracy: 0.1)

        var openERM = ermClosedLoop
        openERM.ratings.loop = .open
        try driver.initialize(openERM)
        XCTAssertEqual(board.chip.register(0x1D), 0xA0)
        XCTAssertEqual(board.chip.register(0x1A) & 0x80, 0)
        try driver.setMode(.realtimePlayback, standby: false)
        try driver.writeRealtime(signed: 100)
        XCTAssertNil(board.chip.drive.level(at: board.clock.now).frequency, "an ERM is driven with DC")
    }

    func testOlderPartsGetNoOpenLoopPeriodWrite() throws {
        let board = SimulatedBoard(variant: .drv2605)
        let driver = board.makeDriver()
        try driver.initialize(simLRA, verifyFirst: false)
        XCTAssertFalse(board.bus.registerTrace.contains { $0.hasPrefix("OL_LRA_PERIOD") })
        board.bus.clearLog()
        XCTAssertFalse(try driver.initialize(simLRA), "every written register reads back on a DRV2605")
    }

    func testVerifiedInitialisationSkipsWritesWhenTheRegistersHold() throws {
        let board = SimulatedBoard()
        let driver = board.makeDriver()
        try driver.initialize(simLRA)
        board.bus.clearLog()
        XCTAssertFalse(try driver.initialize(simLRA))
        XCTAssertEqual(board.bus.registerTrace, [
            "STATUS?", "FEEDBACK_CONTROL?", "RATED_VOLTAGE?", "OD_CLAMP?", "CONTROL4?", "CONTROL1?",
            "CONTROL2?", "CONTROL3?", "OL_LRA_PERIOD?", "LIBRARY_SEL?", "MODE←0x40",
        ])
    }

    func testCalibrationSucceedsAndReturnsTheChipsResults() throws {
        let board = SimulatedBoard()
        let driver = board.makeDriver()
        try driver.initialize(simLRA)
        let start = board.clock.now
        let result = try driver.calibrate(simLRA)
        XCTAssertEqual(result.compensation, board.chip.register(0x18))
        XCTAssertEqual(result.backEMF, board.chip.register(0x19))
        XCTAssertEqual(result.backEMFGain, board.chip.register(0x1A) & 0x03)
        // The model calibrates for 600 ms at AUTO_CAL_TIME 2; polling every 15 ms finishes within one poll of it.
        let elapsed = board.clock.now - start
        XCTAssertGreaterThanOrEqual(elapsed, .milliseconds(600))
        XCTAssertLessThan(elapsed, .milliseconds(620))
        XCTAssertEqual(board.chip.register(0x01), 0x40)
        // Ratings were written before MODE 7 and GO.
        let trace = board.bus.registerTrace
        let ratedIndex = try XCTUnwrap(trace.lastIndex(of: "RATED_VOLTAGE←0x53"))
        let modeIndex = try XCTUnwrap(trace.firstIndex(of: "MODE←0x07"))
        let goIndex = try XCTUnwrap(trace.firstIndex(of: "GO←0x01"))
        XCTAssertLessThan(ratedIndex, modeIndex)
        XCTAssertLessThan(modeIndex, goIndex)
        XCTAssertEqual(trace.filter { $0 == "GO←0x01" }.count, 1)
    }

    func testCalibrationFailureIsReportedFromDiagResult() throws {
        let board = SimulatedBoard()
        board.chip.calibrationOutcome = .failsDiagnostic
        let driver = board.makeDriver()
        try driver.initialize(simLRA)
        XCTAssertThrowsError(try driver.calibrate(simLRA)) { error in
            guard case .calibrationFailed(let status)? = error as? DRV2605Error else { return XCTFail("\(error)") }
            XCTAssertEqual(status & 0x08, 0x08)
        }
        XCTAssertEqual(board.chip.register(0x01), 0x40)
    }

    /// The datasheet does not say GO ← 0 cancels auto-calibration (the simulated chip keeps
    /// running it): a hung calibration is ended by DEV_RESET, and the reset verified by reading back
    /// the reset values, before the timeout is reported.
    func testCalibrationThatNeverFinishesIsEndedByAVerifiedReset() throws {
        let board = SimulatedBoard()
        board.chip.calibrationOutcome = .neverFinishes
        let driver = board.makeDriver()
        try driver.initialize(simLRA)
        let start = board.clock.now
        XCTAssertThrowsError(try driver.calibrate(simLRA)) { error in
            XCTAssertEqual(error as? DRV2605Error, .calibrationTimeout(.milliseconds(1050)))
        }
        let elapsed = board.clock.now - start
        XCTAssertGreaterThanOrEqual(elapsed, .milliseconds(1050))
        XCTAssertLessThan(elapsed, .milliseconds(1080))
        XCTAssertEqual(Array(board.bus.registerTrace.suffix(6)), ["MODE←0x80", "MODE?", "MODE?", "GO?", "RATED_VOLTAGE?", "OD_CLAMP?"])
        XCTAssertEqual(board.chip.register(0x0C), 0)
        XCTAssertEqual(board.chip.register(0x01), 0x40)
        XCTAssertEqual(board.chip.drive.level(at: board.clock.now).amplitude, 0, "the calibration drive stopped")
    }

    func testAResetThatDoesNotVerifyDropsEN() throws {
        /// Passes transfers to the board until DEV_RESET is written, then fails every one: a chip
        /// that stops answering once reset.
        final class SilentAfterResetBus: I2CBus {
            let inner: SimulatedI2CBus
            private var resetSeen = false
            init(_ inner: SimulatedI2CBus) { self.inner = inner }
            var speedHz: Int { inner.speedHz }
            var name: String { inner.name }
            func transaction(address: I2CAddress, _ operations: [I2COperation]) throws(I2CError) -> [[UInt8]] {
                if resetSeen { throw .noAcknowledge(bus: name, address: address) }
                if operations == [.write([0x01, 0x80])] { resetSeen = true }
                return try inner.transaction(address: address, operations)
            }
        }
        let board = SimulatedBoard()
        board.chip.calibrationOutcome = .neverFinishes
        let driver = DRV2605(bus: SilentAfterResetBus(board.bus), enableLine: board.enableLine, clock: board.clock)
        try driver.initialize(simLRA)
        XCTAssertThrowsError(try driver.calibrate(simLRA)) { error in
            guard case .hungRunNotStopped? = error as? DRV2605Error else { return XCTFail("\(error)") }
        }
        XCTAssertFalse(board.chip.isEnabled, "EN low stops the hung run")
        XCTAssertEqual(board.chip.drive.level(at: board.clock.now).amplitude, 0)
    }

    func testStoredCalibrationIsReappliedWithoutRecalibrating() throws {
        let first = SimulatedBoard()
        let firstDriver = first.makeDriver()
        try firstDriver.initialize(simLRA)
        let stored = try JSONEncoder().encode(try firstDriver.calibrate(simLRA))
        let calibration = try JSONDecoder().decode(DRV2605CalibrationResult.self, from: stored)

        let second = SimulatedBoard()
        let driver = second.makeDriver()
        try driver.initialize(simLRA, calibration: calibration)
        XCTAssertEqual(second.chip.register(0x18), calibration.compensation)
        XCTAssertEqual(second.chip.register(0x19), calibration.backEMF)
        XCTAssertEqual(second.chip.register(0x1A) & 0x03, calibration.backEMFGain)
        XCTAssertFalse(second.bus.registerTrace.contains("GO←0x01"))

        let third = SimulatedBoard()
        let thirdDriver = third.makeDriver()
        try thirdDriver.initialize(simLRA)
        try thirdDriver.apply(DRV2605CalibrationResult(compensation: 0x0E, backEMF: 0x70, backEMFGain: 3))
        XCTAssertEqual(third.chip.register(0x18), 0x0E)
        XCTAssertEqual(third.chip.register(0x19), 0x70)
        XCTAssertEqual(third.chip.register(0x1A), 0xB7)
    }

    func testDiagnosticsPassAndFail() throws {
        let board = SimulatedBoard()
        let driver = board.makeDriver()
        try driver.initialize(simLRA)
        XCTAssertFalse(try driver.runDiagnostics().diagnosticFailed)
        board.chip.diagnosticsPass = false
        XCTAssertThrowsError(try driver.runDiagnostics()) { error in
            guard case .diagnosticsFailed? = error as? DRV2605Error else { return XCTFail("\(error)") }
        }
    }

    func testStatusFaultsBecomeTypedErrors() throws {
        let board = SimulatedBoard()
        let driver = board.makeDriver()
        try driver.initialize(simLRA)
        XCTAssertNoThrow(try driver.checkFaults())
        board.chip.injectOverTemperature()
        XCTAssertThrowsError(try driver.checkFaults()) { error in
            guard case .faults(let faults, _)? = error as? DRV2605Error else { return XCTFail("\(error)") }
            XCTAssertEqual(faults, [.overTemperature])
        }
        board.chip.injectOverCurrent()
        XCTAssertThrowsError(try driver.checkFaults()) { error in
            guard case .faults(let faults, let status)? = error as? DRV2605Error else { return XCTFail("\(error)") }
            XCTAssertEqual(faults, [.overCurrent])
            XCTAssertTrue("\(error)".contains("over-current"))
            XCTAssertEqual(status & 0x01, 1)
        }
    }

    func testResetRestoresResetValues() throws {
        let board = SimulatedBoard()
        let driver = board.makeDriver()
        try driver.initialize(simLRA)
        try driver.reset()
        XCTAssertEqual(board.chip.register(0x16), 0x3E)
        XCTAssertEqual(board.chip.register(0x01), 0x40)
    }

    func testAResetThatNeverClearsTimesOut() throws {
        let board = SimulatedBoard()
        let bus = ReadAlteringBus(board.bus) { register, value in register == .mode ? value | 0x80 : value }
        let driver = DRV2605(bus: bus, enableLine: board.enableLine, clock: board.clock)
        try driver.enable()
        let start = board.clock.now
        XCTAssertThrowsError(try driver.reset(timeout: .milliseconds(20))) { error in
            XCTAssertEqual(error as? DRV2605Error, .resetTimeout(.milliseconds(20)))
        }
        XCTAssertGreaterThanOrEqual(board.clock.now - start, .milliseconds(20))
        XCTAssertLessThan(board.clock.now - start, .milliseconds(22))
    }

    /// GO reads set for ever, even after DEV_RESET: the reset cannot be verified, so EN goes low.
    func testDiagnosticsWhoseGoNeverClearsEvenAfterAResetDropEN() throws {
        let board = SimulatedBoard()
        let bus = ReadAlteringBus(board.bus) { register, value in register == .go ? 1 : value }
        let driver = DRV2605(bus: bus, enableLine: board.enableLine, clock: board.clock)
        try driver.initialize(simLRA)
        XCTAssertThrowsError(try driver.runDiagnostics(timeout: .milliseconds(300))) { error in
            XCTAssertEqual(error as? DRV2605Error, .hungRunNotStopped(.resetNotVerified(register: .go, expected: 0, found: 1)))
        }
        XCTAssertEqual(Array(board.bus.registerTrace.suffix(4)), ["MODE←0x80", "MODE?", "MODE?", "GO?"])
        XCTAssertFalse(board.chip.isEnabled)
        XCTAssertEqual(board.chip.drive.level(at: board.clock.now).amplitude, 0)
    }

    // MARK: Bus faults

    private func enabledDriver() throws -> (SimulatedBoard, DRV2605) {
        let board = SimulatedBoard()
        let driver = board.makeDriver()
        try driver.enable()
        return (board, driver)
    }

    func testMissingAcknowledgeIsNotRetried() throws {
        let (board, driver) = try enabledDriver()
        board.bus.injectNoAcknowledge(from: 0x5A)
        XCTAssertThrowsError(try driver.readRegister(.status)) { error in
            XCTAssertEqual(error as? DRV2605Error, .bus(register: .status, .noAcknowledge(bus: "sim", address: 0x5A), attempts: 1))
        }
        XCTAssertEqual(board.bus.log.count, 1)
    }

    func testADetachedChipIsATypedError() throws {
        let (board, driver) = try enabledDriver()
        board.bus.detach(at: 0x5A)
        XCTAssertThrowsError(try driver.writeRegister(.ratedVoltage, 0x53)) { error in
            XCTAssertEqual(error as? DRV2605Error, .bus(register: .ratedVoltage, .noAcknowledge(bus: "sim", address: 0x5A), attempts: 1))
        }
    }

    func testTransientErrorsAreRetriedAndSucceed() throws {
        let (board, driver) = try enabledDriver()
        board.bus.injectError(.transfer(bus: "sim", address: 0x5A, errno: .ioError), onTransfer: 1, times: 2)
        try driver.writeRegister(.ratedVoltage, 0x53)
        XCTAssertEqual(board.bus.registerTrace, ["RATED_VOLTAGE←0x53!", "RATED_VOLTAGE←0x53!", "RATED_VOLTAGE←0x53"])
        XCTAssertEqual(board.chip.register(0x16), 0x53)
        board.bus.clearLog()
        board.bus.injectError(.transfer(bus: "sim", address: 0x5A, errno: .resourceTemporarilyUnavailable), onTransfer: 1)
        XCTAssertEqual(try driver.readRegister(.ratedVoltage), 0x53)
        XCTAssertEqual(board.bus.registerTrace, ["RATED_VOLTAGE?!", "RATED_VOLTAGE?"])
    }

    func testPersistentTransientErrorsGiveUpAfterTheRetries() throws {
        let (board, driver) = try enabledDriver()
        let eio = I2CError.transfer(bus: "sim", address: 0x5A, errno: .ioError)
        board.bus.injectError(eio, onTransfer: 1, times: 10)
        XCTAssertThrowsError(try driver.writeRegister(.ratedVoltage, 0x53)) { error in
            XCTAssertEqual(error as? DRV2605Error, .bus(register: .ratedVoltage, eio, attempts: 4))
        }
        XCTAssertEqual(board.bus.log.count, 4)
    }

    func testAStuckBusTimesOutAfterTheRetries() throws {
        let (board, driver) = try enabledDriver()
        board.bus.isStuck = true
        let start = board.clock.now
        XCTAssertThrowsError(try driver.readRegister(.status)) { error in
            XCTAssertEqual(error as? DRV2605Error, .bus(register: .status, .timeout(bus: "sim", address: 0x5A), attempts: 4))
        }
        // Four adapter timeouts and three backoffs: the bound a caller can rely on.
        XCTAssertEqual(board.clock.now - start, board.bus.stuckTimeout * 4 + DRV2605RetryPolicy().backoff * 3)
    }

    func testGoIsNotRetriedBlindly() throws {
        let (board, driver) = try enabledDriver()
        let eio = I2CError.transfer(bus: "sim", address: 0x5A, errno: .ioError)
        board.bus.injectError(eio, onTransfer: 1)
        XCTAssertThrowsError(try driver.go()) { error in
            XCTAssertEqual(error as? DRV2605Error, .bus(register: .go, eio, attempts: 1))
        }
        // One GO attempt, then GO read back (clear: the write did not land), and no second GO.
        XCTAssertEqual(board.bus.registerTrace, ["GO←0x01!", "GO?"])
    }

    func testAGoThatLandedDespiteAnErrorIsNotSentTwice() throws {
        let board = SimulatedBoard()
        let bus = LateFailureBus(board.bus)
        let driver = DRV2605(bus: bus, enableLine: board.enableLine, clock: board.clock)
        try driver.initialize(simLRA)
        try driver.setMode(.internalTrigger, standby: false)
        try driver.load(try DRV2605Sequence([.effect(1)]))
        board.bus.clearLog()
        bus.failNextTransferAfterDelivery = .transfer(bus: "sim", address: 0x5A, errno: .ioError)
        try driver.go()
        // The GO write reached the chip; reading GO back shows it running, so there is no second GO.
        XCTAssertEqual(board.bus.registerTrace, ["GO←0x01", "GO?"])
        XCTAssertTrue(try driver.isRunning())
    }

    // MARK: Sequencer and RTP

    func testSequencerValidation() {
        func expect(_ steps: [SequencerStep], _ expected: DRV2605SequenceError, line: UInt = #line) {
            XCTAssertThrowsError(try DRV2605Sequence(steps), line: line) { error in
                XCTAssertEqual(error as? DRV2605SequenceError, expected, line: line)
            }
        }
        expect([], .empty)
        expect(Array(repeating: .effect(1), count: 9), .tooManySteps(9))
        expect([.effect(1), .effect(0)], .effectOutOfRange(slot: 2, id: 0))
        expect([.effect(124)], .effectOutOfRange(slot: 1, id: 124))
        expect([.effect(1), .wait(.milliseconds(15))], .waitNotMultipleOfTenMilliseconds(slot: 2, .milliseconds(15)))
        expect([.wait(.zero)], .waitOutOfRange(slot: 1, .zero))
        expect([.wait(.milliseconds(1280))], .waitOutOfRange(slot: 1, .milliseconds(1280)))
        XCTAssertEqual(try DRV2605Sequence([.effect(123), .wait(.milliseconds(1270)), .wait(.milliseconds(10))]).bytes, [123, 0xFF, 0x81])
    }

    func testSequenceLoadsWithTerminatorAndPlaysUntilGoClears() throws {
        let board = SimulatedBoard()
        let driver = board.makeDriver()
        try driver.initialize(simLRA)
        try driver.setMode(.internalTrigger, standby: false)
        board.bus.clearLog()
        try driver.play([.effect(1), .wait(.milliseconds(100)), .effect(47)])
        XCTAssertEqual(board.bus.registerTrace, ["WAV_FRM_SEQ1←0x01,0x8A,0x2F,0x00", "GO←0x01"], "the slots in one write, the pointer advancing")
        XCTAssertEqual((0x04...0x08).map { board.chip.register(UInt8($0)) }, [0x01, 0x8A, 0x2F, 0x00, 0x00])
        XCTAssertTrue(try driver.isRunning())
        let length = DRV2605Model.estimatedDuration(ofEffect: 1) + .milliseconds(100) + DRV2605Model.estimatedDuration(ofEffect: 47)
        board.clock.advance(by: length + .milliseconds(1))
        XCTAssertFalse(try driver.isRunning())
        XCTAssertTrue(board.chip.drive.changes.contains { $0.amplitude != 0 })

        let eight = Array(repeating: SequencerStep.effect(1), count: 8)
        XCTAssertEqual(try DRV2605Sequence(eight).slotValues, Array(repeating: 1, count: 8), "a full sequencer has no terminating slot")
        XCTAssertThrowsError(try driver.play(Array(repeating: .effect(1), count: 9))) { error in
            XCTAssertEqual(error as? DRV2605Error, .invalidSequence(.tooManySteps(9)))
        }
    }

    func testRealtimePlaybackSignedAndUnsigned() throws {
        let board = SimulatedBoard()
        let driver = board.makeDriver()
        try driver.initialize(simLRA)
        try driver.setMode(.realtimePlayback, standby: false)
        try driver.writeRealtime(signed: 64)
        XCTAssertEqual(board.chip.drive.level(at: board.clock.now).amplitude, 64.0 / 127, accuracy: 1e-9)
        try driver.writeRealtime(signed: -127)
        XCTAssertEqual(board.chip.register(0x02), 0x81)
        try driver.setRealtimeFormat(.unsigned)
        XCTAssertEqual(board.chip.register(0x1D) & 0x08, 0x08)
        try driver.writeRealtime(unsigned: 0xFF)
        XCTAssertEqual(board.chip.register(0x02), 0xFF)
    }

    func testRegisterDumpNamesAndDecodesEveryRegister() throws {
        let board = SimulatedBoard()
        let driver = board.makeDriver()
        try driver.enable()
        let dump = try driver.dumpRegisters()
        XCTAssertEqual(dump.entries.count, 0x23)
        let status = try XCTUnwrap(dump.entries.first)
        XCTAssertEqual(status.name, "STATUS")
        XCTAssertEqual(status.value, 0xE0)
        XCTAssertEqual(status.fields.first, DRV2605RegisterDump.FieldValue(name: "DEVICE_ID", value: 7))
        XCTAssertEqual(dump.value(of: .mode), 0x40)
        XCTAssertEqual(dump.value(of: .control2), 0xF5)
    }
}
