import ActuatorHAL
import XCTest

/// Expected register values are worked by hand from the datasheet formulas (see each comment),
/// not computed with the code under test.
final class DRV2605RatingsTests: XCTestCase {
    private func values(_ ratings: DRV2605Ratings, sampleTime: DRV2605SampleTime = .microseconds300) throws -> DRV2605RegisterValues {
        try DRV2605RegisterValues(configuration: DRV2605Configuration(ratings: ratings, sampleTime: sampleTime), variant: .drv2605L)
    }

    func testC10_100At175HzTwoVoltsRMS() throws {
        let v = try values(DRV2605Ratings(kind: .lra, loop: .closed, ratedVoltage: 2.0, overdriveVoltage: 2.8, resonantFrequency: 175))
        // 2.0 × sqrt(1 − (4·300 µs + 300 µs)·175) / 20.58 mV = 2.0 × 0.85878 / 0.02058 = 83.46 → 83 (0x53,
        // the value TI's E2E thread 342477 uses for this actuator).
        XCTAssertEqual(v.ratedVoltage, 83)
        // 2.8 V / 21.22 mV = 131.95 → 132.
        XCTAssertEqual(v.overdriveClamp, 132)
        // Half period 2.857 ms: (2.857 − 0.5) / 0.1 = 23.57 → 24, with STARTUP_BOOST (0x80).
        XCTAssertEqual(v.control1, 0x80 | 24)
        // 5714 µs / 98.46 µs = 58.04 → 58.
        XCTAssertEqual(v.openLoopPeriod, 58)
        // N_ERM_LRA, brake 4x (3), loop gain medium (1), BEMF_GAIN 2: 1_011_01_10.
        XCTAssertEqual(v.feedbackControl, 0b1011_0110)
        XCTAssertEqual(v.control2, 0xF5)
        // NG_THRESH 2, closed loop, signed RTP.
        XCTAssertEqual(v.control3, 0x80)
        XCTAssertEqual(v.control4, 0x20)
        XCTAssertEqual(v.librarySelect, 6)
    }

    func testLRAAt205HzOnePointFiveVolts() throws {
        let v = try values(DRV2605Ratings(kind: .lra, loop: .closed, ratedVoltage: 1.5, overdriveVoltage: 2.1, resonantFrequency: 205))
        // 1.5 × sqrt(1 − 0.0015·205) / 0.02058 = 1.5 × 0.83217 / 0.02058 = 60.65 → 61.
        XCTAssertEqual(v.ratedVoltage, 61)
        // 2.1 / 0.02122 = 98.96 → 99.
        XCTAssertEqual(v.overdriveClamp, 99)
        // 2.439 ms half period → 19.39 → 19.
        XCTAssertEqual(DRV2605Field.driveTime.value(in: v.control1), 19)
        // 4878 µs / 98.46 µs = 49.54 → 50.
        XCTAssertEqual(v.openLoopPeriod, 50)
    }

    func testLRAAt235HzOpenLoop() throws {
        let v = try values(DRV2605Ratings(kind: .lra, loop: .open, ratedVoltage: 1.8, overdriveVoltage: 2.5, resonantFrequency: 235))
        // 1.8 × sqrt(1 − 0.0015·235) / 0.02058 = 1.8 × 0.80467 / 0.02058 = 70.38 → 70.
        XCTAssertEqual(v.ratedVoltage, 70)
        XCTAssertEqual(v.overdriveClamp, 118) // 2.5 / 0.02122 = 117.8
        XCTAssertEqual(DRV2605Field.driveTime.value(in: v.control1), 16) // 2.128 ms → 16.28
        XCTAssertEqual(v.openLoopPeriod, 43) // 4255 µs / 98.46 µs = 43.2
        XCTAssertEqual(v.control3, 0x81) // LRA_OPEN_LOOP
    }

    func testERMClosedLoopThreeVolts() throws {
        let v = try values(DRV2605Ratings(kind: .erm, loop: .closed, ratedVoltage: 3.0, overdriveVoltage: 3.6))
        XCTAssertEqual(v.ratedVoltage, 142) // 3.0 / 0.02118 = 141.64
        XCTAssertEqual(v.overdriveClamp, 170) // 3.6 / 0.02122 = 169.65
        XCTAssertEqual(v.control1, 0x93) // DRIVE_TIME keeps its reset value for an ERM
        XCTAssertNil(v.openLoopPeriod)
        XCTAssertEqual(v.feedbackControl & 0x80, 0)
        XCTAssertEqual(v.control3, 0x80)
        // Closed loop: library A is open-loop only; B suits a 3 V ERM (the datasheet's library table).
        XCTAssertEqual(v.librarySelect, 2)
        let open = try values(DRV2605Ratings(kind: .erm, loop: .open, ratedVoltage: 3.0, overdriveVoltage: 3.6))
        XCTAssertEqual(open.control3, 0xA0) // ERM_OPEN_LOOP
    }

    func testSampleTimeEntersTheLRAFormula() throws {
        let v = try values(DRV2605Ratings(kind: .lra, loop: .closed, ratedVoltage: 2.0, overdriveVoltage: 2.8, resonantFrequency: 175), sampleTime: .microseconds150)
        // 2.0 × sqrt(1 − (600 + 300) µs · 175) / 0.02058 = 89.2 → 89.
        XCTAssertEqual(v.ratedVoltage, 89)
        XCTAssertEqual(DRV2605Field.sampleTime.value(in: v.control2), 0)
    }

    func testRegistersClampToTheirRange() throws {
        // 100 Hz: half period 5 ms is beyond DRIVE_TIME's 3.6 ms; 60 Hz: 169 steps beyond 127.
        let slow = try values(DRV2605Ratings(kind: .lra, loop: .open, ratedVoltage: 1.0, overdriveVoltage: 9.0, resonantFrequency: 60))
        XCTAssertEqual(DRV2605Field.driveTime.value(in: slow.control1), 31)
        XCTAssertEqual(slow.openLoopPeriod, 127)
        XCTAssertEqual(slow.overdriveClamp, 255) // 9 V / 21.22 mV = 424
    }

    func testImpossibleRatingsAreTypedErrors() {
        func expect(_ ratings: DRV2605Ratings, _ expected: DRV2605RatingsError, line: UInt = #line) {
            XCTAssertThrowsError(try values(ratings), line: line) { error in
                XCTAssertEqual(error as? DRV2605Error, .invalidRatings(expected), line: line)
            }
        }
        // 700 Hz at 300 µs: 1 − 1.5 ms · 700 = −0.05, no square root.
        expect(DRV2605Ratings(kind: .lra, loop: .closed, ratedVoltage: 2, overdriveVoltage: 3, resonantFrequency: 700),
               .frequencyTooHighForSampleTime(frequency: 700, sampleTime: .microseconds300))
        expect(DRV2605Ratings(kind: .lra, loop: .closed, ratedVoltage: 2, overdriveVoltage: 3, resonantFrequency: 0),
               .invalidResonantFrequency(0))
        expect(DRV2605Ratings(kind: .lra, loop: .closed, ratedVoltage: 2, overdriveVoltage: 3), .missingResonantFrequency)
        expect(DRV2605Ratings(kind: .erm, loop: .closed, ratedVoltage: -1, overdriveVoltage: 3), .invalidVoltage(name: "rated voltage", -1))
        expect(DRV2605Ratings(kind: .erm, loop: .closed, ratedVoltage: 3, overdriveVoltage: 0), .invalidVoltage(name: "overdrive voltage", 0))
        expect(DRV2605Ratings(kind: .voiceCoil, loop: .open, ratedVoltage: 1, overdriveVoltage: 1), .unsupportedKind(.voiceCoil))
    }

    func testLibraryFollowsTheVariant() throws {
        let lra = DRV2605Ratings(kind: .lra, loop: .closed, ratedVoltage: 2, overdriveVoltage: 2.8, resonantFrequency: 175)
        XCTAssertNil(try DRV2605RegisterValues(configuration: DRV2605Configuration(ratings: lra), variant: .drv2604L).librarySelect)
        XCTAssertThrowsError(try DRV2605RegisterValues(configuration: DRV2605Configuration(ratings: lra, library: .ermF), variant: .drv2605)) { error in
            guard case .unsupported(.drv2605, _)? = error as? DRV2605Error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(try DRV2605RegisterValues(configuration: DRV2605Configuration(ratings: lra, library: .ermF), variant: .drv2605L).librarySelect, 7)
    }

    func testInverseFormulasForDumps() throws {
        XCTAssertEqual(DRV2605OverdriveClamp.volts(register: 132), 2.801, accuracy: 0.001)
        XCTAssertEqual(try DRV2605RatedVoltage.lraVolts(register: 83, frequency: 175, sampleTime: .microseconds300), 1.989, accuracy: 0.001)
        XCTAssertEqual(DRV2605DriveTime.lraMilliseconds(register: 20), 2.5, accuracy: 1e-9) // TI's 200 Hz example
        XCTAssertEqual(try XCTUnwrap(DRV2605OpenLoopPeriod.frequency(register: 58)), 175.1, accuracy: 0.1)
    }

    func testVariantsFromDeviceID() {
        XCTAssertEqual(DRV2605Variant(deviceID: 3), .drv2605)
        XCTAssertEqual(DRV2605Variant(deviceID: 4), .drv2604)
        XCTAssertEqual(DRV2605Variant(deviceID: 6), .drv2604L)
        XCTAssertEqual(DRV2605Variant(deviceID: 7), .drv2605L)
        XCTAssertNil(DRV2605Variant(deviceID: 5))
        XCTAssertFalse(DRV2605Variant.drv2604.hasROMLibrary)
    }

    func testFieldsEncodeAndDecode() {
        XCTAssertEqual(DRV2605Field.deviceID.value(in: 0xE0), 7)
        XCTAssertEqual(DRV2605Field.sampleTime.mask, 0x30)
        XCTAssertEqual(DRV2605Field.backEMFGain.replacing(in: 0xB6, with: 1), 0xB5)
        XCTAssertEqual(DRV2605Mode.realtimePlayback.registerValue(standby: false), 0x05)
        XCTAssertEqual(DRV2605Mode.internalTrigger.registerValue(standby: true), 0x40)
        XCTAssertEqual(DRV2605Register.waveformSequence8.datasheetName, "WAV_FRM_SEQ8")
    }
}
