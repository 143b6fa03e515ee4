import ActuatorHAL
import HardwareMocks
import XCTest

/// Register addresses as the datasheet numbers them (DRV2605L), spelled out here rather than taken
/// from the model so a slip in either shows up.
private enum Reg {
    static let status: UInt8 = 0x00
    static let mode: UInt8 = 0x01
    static let rtpInput: UInt8 = 0x02
    static let library: UInt8 = 0x03
    static let sequence1: UInt8 = 0x04
    static let go: UInt8 = 0x0C
    static let ratedVoltage: UInt8 = 0x16
    static let overdriveClamp: UInt8 = 0x17
    static let calibrationCompensation: UInt8 = 0x18
    static let calibrationBackEMF: UInt8 = 0x19
    static let feedback: UInt8 = 0x1A
    static let control2: UInt8 = 0x1C
    static let control3: UInt8 = 0x1D
    static let control4: UInt8 = 0x1E
    static let openLoopPeriod: UInt8 = 0x20
    static let vbat: UInt8 = 0x21
    static let lraPeriod: UInt8 = 0x22
}

private enum Mode {
    static let internalTrigger: UInt8 = 0
    static let realTime: UInt8 = 5
    static let diagnostics: UInt8 = 6
    static let autoCalibration: UInt8 = 7
    static let standby: UInt8 = 0x40
    static let deviceReset: UInt8 = 0x80
}

final class DRV2605ModelTests: XCTestCase {
    // MARK: Reset values and register file

    func testResetValuesPerVariantReadThroughOneAutoIncrementingRead() throws {
        // Datasheet register maps: DRV2605 (SLOS825E) and DRV2605L (SLOS854).
        let common: [UInt8] = [0x40, 0x00, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0, 0x00, 0, 0, 0, 0,
                               0x05, 0x19, 0xFF, 0x19, 0xFF]
        let expected: [DRV2605Model.Variant: (id: UInt8, rated: UInt8, clamp: UInt8, control5: UInt8, openLoop: UInt8)] = [
            .drv2605: (3, 0x3F, 0x89, 0x00, 0x00),
            .drv2604: (4, 0x3F, 0x89, 0x00, 0x00),
            .drv2604L: (6, 0x3E, 0x8C, 0x80, 0x33),
            .drv2605L: (7, 0x3E, 0x8C, 0x80, 0x33),
        ]
        for variant in DRV2605Model.Variant.allCases {
            let board = SimulatedBoard(variant: variant)
            try board.powerOn()
            let values = try board.bus.writeRead(address: SimulatedBoard.chipAddress, [Reg.status], readCount: 0x23)
            let e = try XCTUnwrap(expected[variant])
            let want: [UInt8] = [e.id << 5] + common
                + [e.rated, e.clamp, 0x0D, 0x6D, 0x36, 0x93, 0xF5, 0xA0, 0x20, e.control5, e.openLoop, 0xA4, 0x00]
            XCTAssertEqual(values, want, "\(variant)")
            XCTAssertEqual(variant.deviceID, e.id)
        }
    }

    func testMultiByteWriteAutoIncrementsThePointer() throws {
        let board = SimulatedBoard()
        try board.powerOn()
        try board.bus.write(address: SimulatedBoard.chipAddress, [Reg.sequence1, 1, 2, 0x85, 47])
        XCTAssertEqual((0..<4).map { board.chip.register(Reg.sequence1 + $0) }, [1, 2, 0x85, 47])
        XCTAssertEqual(try board.bus.writeRead(address: SimulatedBoard.chipAddress, [Reg.sequence1 + 1], readCount: 2), [2, 0x85])
    }

    func testReadOnlyRegistersIgnoreWrites() throws {
        let board = SimulatedBoard()
        try board.powerOn()
        try board.writeRegister(Reg.status, 0x1F)
        try board.writeRegister(Reg.vbat, 0x00)
        try board.writeRegister(Reg.lraPeriod, 0x55)
        XCTAssertEqual(try board.readRegister(Reg.status), 0xE0)
        // 3.6 V × 255 / 5.6 V = 163.9 → 0xA4.
        XCTAssertEqual(try board.readRegister(Reg.vbat), 0xA4)
        XCTAssertEqual(try board.readRegister(Reg.lraPeriod), 0x00)
        board.chip.supplyVoltage = 5.0
        XCTAssertEqual(try board.readRegister(Reg.vbat), 228)
    }

    func testDeviceResetRestoresResetValuesAndClearsItself() throws {
        let board = SimulatedBoard()
        try board.powerOn(mode: Mode.internalTrigger)
        try board.writeRegister(Reg.ratedVoltage, 0x90)
        try board.writeRegister(Reg.library, 6)
        try board.writeRegister(Reg.mode, Mode.deviceReset)
        XCTAssertEqual(try board.readRegister(Reg.mode), 0x40, "DEV_RESET self-clears; STANDBY is back")
        XCTAssertEqual(try board.readRegister(Reg.ratedVoltage), 0x3E)
        XCTAssertEqual(try board.readRegister(Reg.library), 0x00)
    }

    // MARK: EN pin

    func testSimulatedBoardWiring() {
        let board = SimulatedBoard()
        XCTAssertEqual(board.enableLine.name, "EN")
        XCTAssertEqual(board.enableLine.level, .low)
        XCTAssertFalse(board.chip.isEnabled)
        XCTAssertEqual(board.bus.name, "sim")
        XCTAssertEqual(board.bus.speedHz, 400_000)
        XCTAssertEqual(SimulatedBoard(speedHz: 100_000).bus.speedHz, 100_000)
        XCTAssertEqual(board.chip.variant, .drv2605L)
    }

    func testWithENLowTheChipAcknowledgesButIgnoresWritesAndReadsZero() throws {
        let board = SimulatedBoard()
        XCTAssertNoThrow(try board.writeRegister(Reg.ratedVoltage, 0x90))
        XCTAssertEqual(try board.readRegister(Reg.status), 0x00)
        XCTAssertEqual(board.chip.register(Reg.ratedVoltage), 0x3E, "the write was ignored")
        XCTAssertEqual(board.chip.register(Reg.status), 0xE0, "inspection bypasses EN")
        XCTAssertTrue(board.bus.log.allSatisfy { $0.error == nil })
    }

    func testAccessWithin250MicrosecondsOfENHighIsIgnored() throws {
        let board = SimulatedBoard()
        try board.enableLine.set(.high)
        XCTAssertTrue(board.chip.isEnabled)
        try board.writeRegister(Reg.ratedVoltage, 0x90)
        XCTAssertEqual(board.chip.register(Reg.ratedVoltage), 0x3E)
        XCTAssertEqual(try board.readRegister(Reg.status), 0x00)
        board.clock.advance(to: board.enableLine.history[0].time + .microseconds(250))
        try board.writeRegister(Reg.ratedVoltage, 0x90)
        XCTAssertEqual(try board.readRegister(Reg.ratedVoltage), 0x90)
    }

    func testENLowLosesTheRegisterFileAndStopsOutputAtOnce() throws {
        let board = SimulatedBoard()
        try board.powerOn(mode: Mode.realTime)
        try board.writeRegister(Reg.ratedVoltage, 0x90)
        try board.writeRegister(Reg.rtpInput, 0x7F)
        board.clock.advance(by: .milliseconds(10))
        try board.enableLine.set(.low)
        let offTime = board.clock.now
        XCTAssertEqual(board.chip.drive.level(at: offTime).amplitude, 0)
        XCTAssertEqual(board.chip.drive.level(at: offTime - .nanoseconds(1)).amplitude, 1)
        try board.powerOn()
        XCTAssertEqual(try board.readRegister(Reg.ratedVoltage), 0x3E, "registers are lost while EN is low")
        XCTAssertEqual(try board.readRegister(Reg.mode), 0x40)
    }

    // MARK: Sequencer

    func testStandbyIgnoresGo() throws {
        let board = SimulatedBoard()
        try board.powerOn()
        try board.writeRegister(Reg.go, 1)
        XCTAssertEqual(try board.readRegister(Reg.go), 0)
        XCTAssertTrue(board.chip.drive.changes.isEmpty)
    }

    func testGoClearsWhenASequenceWithWaitsEnds() throws {
        let board = SimulatedBoard()
        try board.powerOn(mode: Mode.internalTrigger)
        try board.writeRegister(Reg.library, 6)
        // Strong Click 100 %, wait 12 × 10 ms, Buzz 1, end.
        try board.bus.write(address: SimulatedBoard.chipAddress, [Reg.sequence1, 1, UInt8(0x80 | 12), 47, 0])
        try board.writeRegister(Reg.go, 1)
        let start = try XCTUnwrap(board.bus.log.last).time
        let length = DRV2605Model.estimatedDuration(ofEffect: 1) + .milliseconds(120) + DRV2605Model.estimatedDuration(ofEffect: 47)
        board.clock.advance(to: start + length - .nanoseconds(1))
        XCTAssertEqual(board.chip.register(Reg.go), 1)
        board.clock.advance(to: start + length)
        XCTAssertEqual(board.chip.register(Reg.go), 0)
        XCTAssertEqual(try board.readRegister(Reg.go), 0)

        let drive = board.chip.drive
        let waitStart = start + DRV2605Model.estimatedDuration(ofEffect: 1)
        XCTAssertEqual(drive.level(at: start).amplitude, 1)
        XCTAssertEqual(drive.level(at: waitStart).amplitude, 0, "the wait is silent")
        XCTAssertEqual(drive.level(at: waitStart + .milliseconds(120)).amplitude, 1, "Buzz 1 starts exactly after the wait")
        XCTAssertEqual(drive.level(at: start + length).amplitude, 0)
    }

    func testSequenceStopsAtTheFirstEmptySlotAndUsesEffectStrengthAtResonance() throws {
        let board = SimulatedBoard()
        try board.powerOn(mode: Mode.internalTrigger)
        try board.writeRegister(Reg.library, 6)
        try board.writeRegister(Reg.feedback, 0xB6) // N_ERM_LRA = 1
        try board.bus.write(address: SimulatedBoard.chipAddress, [Reg.sequence1, 2, 0, 14])
        try board.writeRegister(Reg.go, 1)
        let start = try XCTUnwrap(board.bus.log.last).time
        board.clock.advance(by: .seconds(2))
        let level = board.chip.drive.level(at: start)
        XCTAssertEqual(level.amplitude, 0.6, accuracy: 1e-9, "Strong Click - 60%")
        XCTAssertEqual(level.frequency, 175)
        XCTAssertEqual(board.chip.drive.changes.last?.time, start + DRV2605Model.estimatedDuration(ofEffect: 2),
                       "slot 3 is never reached")
        let period = try board.readRegister(Reg.lraPeriod)
        XCTAssertEqual(Double(period) * 98.46e-6, 1 / 175.0, accuracy: 98.46e-6)
    }

    func testOpenLoopLRADrivesAtTheOpenLoopPeriodAndERMHasNoFrequency() throws {
        let board = SimulatedBoard()
        try board.powerOn(mode: Mode.realTime)
        try board.writeRegister(Reg.feedback, 0xB6)
        try board.writeRegister(Reg.control3, 0xA1) // LRA_OPEN_LOOP
        try board.writeRegister(Reg.openLoopPeriod, 50)
        try board.writeRegister(Reg.rtpInput, 0x40)
        let frequency = try XCTUnwrap(board.chip.drive.changes.last?.frequency)
        XCTAssertEqual(frequency, 1 / (50 * 98.46e-6), accuracy: 1e-6)
        try board.writeRegister(Reg.feedback, 0x36) // ERM
        try board.writeRegister(Reg.rtpInput, 0x41)
        XCTAssertNil(board.chip.drive.changes.last?.frequency)
    }

    func testRampEffectsAreRecordedInSteps() throws {
        let board = SimulatedBoard()
        try board.powerOn(mode: Mode.internalTrigger)
        try board.writeRegister(Reg.library, 1)
        try board.writeRegister(Reg.sequence1, 82) // Transition Ramp Up Long Smooth 1, 0 to 100 %
        try board.writeRegister(Reg.go, 1)
        let start = try XCTUnwrap(board.bus.log.last).time
        board.clock.advance(by: .seconds(2))
        let length = DRV2605Model.estimatedDuration(ofEffect: 82)
        let early = board.chip.drive.level(at: start).amplitude
        let late = board.chip.drive.level(at: start + length - .nanoseconds(1)).amplitude
        XCTAssertLessThan(early, 0.2)
        XCTAssertGreaterThan(late, 0.8)
    }

    func testWritingGoZeroStopsPlaybackAtOnce() throws {
        let board = SimulatedBoard()
        try board.powerOn(mode: Mode.internalTrigger)
        try board.writeRegister(Reg.library, 6)
        try board.writeRegister(Reg.sequence1, 118) // long buzz for programmatic stopping
        try board.writeRegister(Reg.go, 1)
        board.clock.advance(by: .milliseconds(100))
        XCTAssertEqual(try board.readRegister(Reg.go), 1)
        try board.writeRegister(Reg.go, 0)
        let stop = try XCTUnwrap(board.bus.log.last).time
        XCTAssertEqual(board.chip.register(Reg.go), 0)
        board.clock.advance(by: .seconds(5))
        XCTAssertEqual(board.chip.drive.level(at: stop).amplitude, 0)
        XCTAssertEqual(board.chip.drive.changes.last?.time, stop, "nothing plays after the stop")
    }

    func testEmptyLibraryTakesTheTimeButDrivesNothing() throws {
        let board = SimulatedBoard()
        try board.powerOn(mode: Mode.internalTrigger)
        try board.writeRegister(Reg.go, 1) // LIBRARY_SEL 0, WAV_FRM_SEQ1 = 1 after reset
        XCTAssertEqual(board.chip.register(Reg.go), 1)
        board.clock.advance(by: DRV2605Model.estimatedDuration(ofEffect: 1))
        XCTAssertEqual(board.chip.register(Reg.go), 0)
        XCTAssertTrue(board.chip.drive.changes.allSatisfy { $0.amplitude == 0 })
    }

    func testOnlyPartsWithTheROMLibraryPlayROMEffects() throws {
        let cases: [(DRV2605Model.Variant, UInt8, Bool)] = [
            (.drv2605L, 7, true), (.drv2605, 7, false), (.drv2605, 1, true),
            (.drv2604, 6, false), (.drv2604L, 6, false),
        ]
        for (variant, library, plays) in cases {
            let board = SimulatedBoard(variant: variant)
            try board.powerOn(mode: Mode.internalTrigger)
            try board.writeRegister(Reg.library, library)
            try board.writeRegister(Reg.go, 1)
            board.clock.advance(by: .seconds(1))
            XCTAssertEqual(board.chip.register(Reg.go), 0)
            XCTAssertEqual(board.chip.drive.changes.contains { $0.amplitude != 0 }, plays, "\(variant) library \(library)")
        }
    }

    func testEstimatedDurationsCoverTheLibrary() {
        XCTAssertEqual(DRV2605Model.estimatedDuration(ofEffect: 15), .milliseconds(750))
        XCTAssertEqual(DRV2605Model.estimatedDuration(ofEffect: 16), .milliseconds(1000))
        XCTAssertEqual(DRV2605Model.estimatedDuration(ofEffect: 0), .zero)
        XCTAssertEqual(DRV2605Model.estimatedDuration(ofEffect: 124), .zero)
        for id in ROMLibrary.effectIDs {
            XCTAssertGreaterThan(DRV2605Model.estimatedDuration(ofEffect: id), .zero, "effect \(id)")
        }
    }

    // MARK: Real-time playback

    func testRTPDrivesTheOutputFromTheTimeOfEachWrite() throws {
        let board = SimulatedBoard()
        try board.powerOn(mode: Mode.realTime)
        var writes: [(time: MonotonicInstant, amplitude: Double)] = []
        for (value, amplitude) in [(UInt8(0x7F), 1.0), (0x40, 64.0 / 127), (0x20, 32.0 / 127), (0x00, 0)] {
            board.clock.advance(by: .milliseconds(5))
            try board.writeRegister(Reg.rtpInput, value)
            writes.append((try XCTUnwrap(board.bus.log.last).time, amplitude))
        }
        let drive = board.chip.drive
        XCTAssertEqual(drive.changes.count, writes.count)
        for (change, write) in zip(drive.changes, writes) {
            XCTAssertEqual(change.time, write.time)
            XCTAssertEqual(change.amplitude, write.amplitude, accuracy: 1e-9)
        }
    }

    func testGoZeroInRTPModeDoesNotStopTheRealTimeOutput() throws {
        let board = SimulatedBoard()
        try board.powerOn(mode: Mode.realTime)
        try board.writeRegister(Reg.rtpInput, 0x7F)
        try board.writeRegister(Reg.go, 0)
        XCTAssertEqual(board.chip.drive.level(at: board.clock.now).amplitude, 1)
    }

    /// The datasheet's "Data Formats for Waveform Playback" figures (DRV2605L SLOS854D): steady-state
    /// output for RTP codes by loop, BIDIR_INPUT (CONTROL2 bit 7) and DATA_FORMAT_RTP (CONTROL3 bit 3),
    /// as a fraction of full scale (OD_CLAMP open loop, RATED_VOLTAGE closed loop).
    func testRTPCodesReadAsTheDatasheetTablesSay() throws {
        struct Setting { var name: String; var feedback: UInt8; var control2: UInt8; var control3: UInt8 }
        // FEEDBACK_CONTROL 0xB6: LRA; CONTROL2 0xF5 bidirectional (reset) / 0x75 unidirectional;
        // CONTROL3 0xA0 (reset) LRA closed loop signed, | 0x08 unsigned, | 0x01 LRA open loop.
        let table: [(Setting, [(UInt8, Double)])] = [
            (Setting(name: "open loop, signed", feedback: 0xB6, control2: 0xF5, control3: 0xA1),
             [(0x81, -1), (0x00, 0), (0x40, 64.0 / 127), (0x7F, 1), (0x80, -1)]),
            (Setting(name: "open loop, unsigned", feedback: 0xB6, control2: 0xF5, control3: 0xA9),
             [(0x00, -1), (0x80, 0), (0xC0, 64.0 / 127), (0xFF, 1)]),
            (Setting(name: "closed loop bidirectional, signed", feedback: 0xB6, control2: 0xF5, control3: 0xA0),
             [(0x81, 0), (0xC0, 0), (0x00, 0), (0x3F, 63.0 / 127), (0x7F, 1)]),
            (Setting(name: "closed loop bidirectional, unsigned", feedback: 0xB6, control2: 0xF5, control3: 0xA8),
             [(0x00, 0), (0x40, 0), (0x80, 0), (0xBF, 63.0 / 127), (0xFF, 1)]),
            (Setting(name: "closed loop unidirectional, unsigned", feedback: 0xB6, control2: 0x75, control3: 0xA8),
             [(0x00, 0), (0x80, 128.0 / 255), (0xFF, 1)]),
            (Setting(name: "closed loop unidirectional, signed", feedback: 0xB6, control2: 0x75, control3: 0xA0),
             [(0x00, 0), (0x40, 64.0 / 127), (0x7F, 1), (0x81, 0)]),
            // CONTROL3's reset value 0xA0 has ERM_OPEN_LOOP (bit 5) set; 0x80 closes the ERM loop.
            (Setting(name: "ERM open loop, signed", feedback: 0x36, control2: 0xF5, control3: 0xA0),
             [(0x81, -1), (0x00, 0), (0x7F, 1)]),
            (Setting(name: "ERM closed loop, signed", feedback: 0x36, control2: 0xF5, control3: 0x80),
             [(0x81, 0), (0x00, 0), (0x7F, 1)]),
        ]
        for (mode, codes) in table {
            let board = SimulatedBoard()
            try board.powerOn(mode: Mode.realTime)
            try board.writeRegister(Reg.feedback, mode.feedback)
            try board.writeRegister(Reg.control2, mode.control2)
            try board.writeRegister(Reg.control3, mode.control3)
            for (code, expected) in codes {
                try board.writeRegister(Reg.rtpInput, code)
                XCTAssertEqual(board.chip.drive.level(at: board.clock.now).amplitude, expected, accuracy: 1e-9, "\(mode.name): RTP_INPUT 0x\(String(code, radix: 16))")
            }
        }
    }

    func testOutputVoltsFollowTheRatedVoltageInClosedLoopAndTheClampInOpenLoop() throws {
        let board = SimulatedBoard()
        try board.powerOn(mode: Mode.realTime)
        // A 175 Hz LRA: RATED_VOLTAGE 0x53 (closed loop, SAMPLE_TIME 300 µs), OD_CLAMP 0x84.
        try board.writeRegister(Reg.feedback, 0xB6)
        try board.writeRegister(Reg.ratedVoltage, 0x53)
        try board.writeRegister(Reg.overdriveClamp, 0x84)
        try board.writeRegister(Reg.rtpInput, 0x7F)
        let closed = 20.58e-3 * 0x53 / (1 - (4 * 300e-6 + 300e-6) * 175).squareRoot()
        XCTAssertEqual(try XCTUnwrap(board.chip.drive.changes.last?.volts), closed, accuracy: 1e-9)
        // Open loop at OL_LRA_PERIOD 0x3A (175.1 Hz): OD_CLAMP is full scale.
        try board.writeRegister(Reg.openLoopPeriod, 0x3A)
        try board.writeRegister(Reg.control3, 0xA1)
        let frequency = 1 / (Double(0x3A) * 98.46e-6)
        XCTAssertEqual(try XCTUnwrap(board.chip.drive.changes.last?.volts), 21.64e-3 * 0x84 * (1 - 800e-6 * frequency).squareRoot(), accuracy: 1e-9)
    }

    func testLeavingRTPModeOrEnteringStandbyStopsOutput() throws {
        let board = SimulatedBoard()
        try board.powerOn(mode: Mode.realTime)
        try board.writeRegister(Reg.rtpInput, 0x7F)
        try board.writeRegister(Reg.mode, Mode.internalTrigger)
        XCTAssertEqual(board.chip.drive.level(at: board.clock.now).amplitude, 0)
        try board.writeRegister(Reg.mode, Mode.realTime)
        XCTAssertEqual(board.chip.drive.level(at: board.clock.now).amplitude, 1, "RTP_INPUT drives again on return")
        try board.writeRegister(Reg.mode, Mode.standby | Mode.realTime)
        XCTAssertEqual(board.chip.drive.level(at: board.clock.now).amplitude, 0)
        try board.writeRegister(Reg.rtpInput, 0x20)
        XCTAssertEqual(board.chip.drive.level(at: board.clock.now).amplitude, 0, "no output in standby")
    }

    // MARK: Auto-calibration and diagnostics

    private func startCalibration(on board: SimulatedBoard, ratedVoltage: UInt8 = 0x53) throws -> MonotonicInstant {
        try board.powerOn(mode: Mode.autoCalibration)
        try board.writeRegister(Reg.feedback, 0xB6)
        try board.writeRegister(Reg.ratedVoltage, ratedVoltage)
        try board.writeRegister(Reg.go, 1)
        return try XCTUnwrap(board.bus.log.last).time
    }

    func testCalibrationTakesItsAutoCalTimeThenWritesPlausibleResults() throws {
        let board = SimulatedBoard()
        let start = try startCalibration(on: board)
        // AUTO_CAL_TIME = 2 after reset: 500–700 ms.
        board.clock.advance(to: start + .milliseconds(500))
        XCTAssertEqual(try board.readRegister(Reg.go), 1)
        board.clock.advance(to: start + .milliseconds(700))
        XCTAssertEqual(try board.readRegister(Reg.go), 0)
        XCTAssertEqual(try board.readRegister(Reg.status) & 0x08, 0, "DIAG_RESULT = 0: passed")
        let compensation = try board.readRegister(Reg.calibrationCompensation)
        let backEMF = try board.readRegister(Reg.calibrationBackEMF)
        XCTAssertTrue((0x01...0x30).contains(compensation))
        XCTAssertTrue((0x20...0xF0).contains(backEMF))
        XCTAssertEqual(try board.readRegister(Reg.feedback) & 0xFC, 0xB4, "only BEMF_GAIN changes")
        XCTAssertEqual(board.chip.drive.level(at: start + .milliseconds(100)).amplitude, 1, "calibration drives the actuator")

        let other = SimulatedBoard()
        _ = try startCalibration(on: other, ratedVoltage: 0x30)
        other.clock.advance(by: .seconds(1))
        XCTAssertLessThan(other.chip.register(Reg.calibrationBackEMF), backEMF, "results follow RATED_VOLTAGE")
    }

    func testCalibrationLengthFollowsAutoCalTime() throws {
        let ranges: [(UInt8, Int, Int)] = [(0, 150, 350), (1, 250, 450), (2, 500, 700), (3, 1000, 1200)]
        for (setting, low, high) in ranges {
            let board = SimulatedBoard()
            try board.powerOn(mode: Mode.autoCalibration)
            try board.writeRegister(Reg.control4, setting << 4)
            try board.writeRegister(Reg.go, 1)
            let start = try XCTUnwrap(board.bus.log.last).time
            board.clock.advance(to: start + .milliseconds(low))
            XCTAssertEqual(board.chip.register(Reg.go), 1, "AUTO_CAL_TIME \(setting)")
            board.clock.advance(to: start + .milliseconds(high))
            XCTAssertEqual(board.chip.register(Reg.go), 0, "AUTO_CAL_TIME \(setting)")
        }
    }

    func testFailedCalibrationSetsDiagResultAfterGoClearsAndReadClearsIt() throws {
        let board = SimulatedBoard()
        board.chip.calibrationOutcome = .failsDiagnostic
        _ = try startCalibration(on: board)
        XCTAssertEqual(board.chip.register(Reg.status) & 0x08, 0, "not valid before GO clears")
        board.clock.advance(by: .seconds(1))
        XCTAssertEqual(try board.readRegister(Reg.go), 0)
        XCTAssertEqual(try board.readRegister(Reg.status), 0xE8)
        XCTAssertEqual(try board.readRegister(Reg.status), 0xE0, "DIAG_RESULT clears upon read")
        XCTAssertEqual(board.chip.register(Reg.calibrationBackEMF), 0x6D, "results untouched")
    }

    func testCalibrationThatNeverFinishesIsStoppedByResetNotByGoZero() throws {
        let board = SimulatedBoard()
        board.chip.calibrationOutcome = .neverFinishes
        _ = try startCalibration(on: board)
        board.clock.advance(by: .seconds(30))
        XCTAssertEqual(try board.readRegister(Reg.go), 1)
        // The datasheet does not say that clearing GO cancels auto-calibration: the model assumes
        // it does not, so a driver has to reset the chip to end a hung calibration.
        try board.writeRegister(Reg.go, 0)
        XCTAssertEqual(try board.readRegister(Reg.go), 1)
        XCTAssertEqual(board.chip.drive.level(at: board.clock.now).amplitude, 1)
        try board.writeRegister(Reg.mode, Mode.deviceReset)
        XCTAssertEqual(try board.readRegister(Reg.go), 0)
        XCTAssertEqual(board.chip.drive.level(at: board.clock.now).amplitude, 0)
    }

    func testDiagnosticsReportPerDiagnosticsPass() throws {
        for passes in [true, false] {
            let board = SimulatedBoard()
            board.chip.diagnosticsPass = passes
            try board.powerOn(mode: Mode.diagnostics)
            try board.writeRegister(Reg.go, 1)
            XCTAssertEqual(try board.readRegister(Reg.go), 1)
            board.clock.advance(by: .seconds(1))
            XCTAssertEqual(try board.readRegister(Reg.go), 0)
            XCTAssertEqual(try board.readRegister(Reg.status) & 0x08, passes ? 0 : 0x08)
        }
    }

    // MARK: Faults

    func testOverTemperatureStopsOutputAndClearsUponRead() throws {
        let board = SimulatedBoard()
        try board.powerOn(mode: Mode.internalTrigger)
        try board.writeRegister(Reg.library, 6)
        try board.writeRegister(Reg.sequence1, 118)
        try board.writeRegister(Reg.go, 1)
        board.clock.advance(by: .milliseconds(50))
        board.chip.injectOverTemperature()
        XCTAssertEqual(board.chip.drive.level(at: board.clock.now).amplitude, 0)
        XCTAssertEqual(try board.readRegister(Reg.go), 0)
        XCTAssertEqual(try board.readRegister(Reg.status), 0xE2)
        XCTAssertEqual(try board.readRegister(Reg.status), 0xE0)
    }

    func testOverCurrentStopsRTPAndStaysLatchedUntilReset() throws {
        let board = SimulatedBoard()
        try board.powerOn(mode: Mode.realTime)
        try board.writeRegister(Reg.rtpInput, 0x60)
        board.chip.injectOverCurrent()
        XCTAssertEqual(board.chip.drive.level(at: board.clock.now).amplitude, 0)
        XCTAssertEqual(try board.readRegister(Reg.status), 0xE1)
        XCTAssertEqual(try board.readRegister(Reg.status), 0xE1, "OC_DETECT is not documented as clear-on-read")
        try board.writeRegister(Reg.mode, Mode.deviceReset)
        XCTAssertEqual(try board.readRegister(Reg.status), 0xE0)
    }
}
