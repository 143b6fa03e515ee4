import ActuatorHAL
import HardwareMocks
import XCTest

/// RTP_INPUT as the datasheet defines it ("Data Formats for Waveform Playback", DRV2605L SLOS854D)
/// and the driver's amplitude mapping against it, for every mode a board file can configure.
final class DRV2605RealtimeInputTests: XCTestCase {
    func testZeroAndFullScaleCodesPerFormatDirectionAndLoop() throws {
        let cases: [(DRV2605RealtimeInput, silence: UInt8, full: UInt8, fullNegative: UInt8?)] = [
            (DRV2605RealtimeInput(format: .signed, direction: .bidirectional, loop: .open), 0x00, 0x7F, 0x81),
            (DRV2605RealtimeInput(format: .unsigned, direction: .bidirectional, loop: .open), 0x80, 0xFF, 0x01),
            (DRV2605RealtimeInput(format: .signed, direction: .bidirectional, loop: .closed), 0x00, 0x7F, nil),
            (DRV2605RealtimeInput(format: .unsigned, direction: .bidirectional, loop: .closed), 0x80, 0xFF, nil),
            (DRV2605RealtimeInput(format: .signed, direction: .unidirectional, loop: .closed), 0x00, 0x7F, nil),
            (DRV2605RealtimeInput(format: .unsigned, direction: .unidirectional, loop: .closed), 0x00, 0xFF, nil),
        ]
        for (input, silence, full, fullNegative) in cases {
            let name = "\(input.loop) \(input.direction) \(input.format)"
            XCTAssertEqual(input.silence, silence, name)
            XCTAssertEqual(try input.register(amplitude: 0), silence, name)
            XCTAssertEqual(try input.register(amplitude: 1), full, name)
            XCTAssertEqual(try input.register(amplitude: 7), full, "clamped: \(name)")
            if let fullNegative {
                XCTAssertEqual(try input.register(amplitude: -1), fullNegative, name)
            } else {
                // Closed loop reads anything at or below the zero code as zero drive: write zero.
                XCTAssertEqual(try input.register(amplitude: -1), silence, name)
            }
            XCTAssertThrowsError(try input.register(amplitude: .nan), name)
            XCTAssertThrowsError(try input.register(amplitude: .infinity), name)
        }
        // Unsigned unidirectional data has twice the steps: 0.5 is 0x80, not 0x40 past mid-scale.
        XCTAssertEqual(try DRV2605RealtimeInput(format: .unsigned, direction: .unidirectional, loop: .closed).register(amplitude: 0.5), 0x80)
        XCTAssertEqual(try DRV2605RealtimeInput(format: .unsigned, direction: .bidirectional, loop: .closed).register(amplitude: 0.5), 0xC0)
    }

    /// Every mode a board file allows, through the actuator, against the simulated chip (which
    /// implements the datasheet's tables on its own): the drive the chip puts out is the amplitude
    /// the driver was asked for, for every step of the grid the driver tells the compiler.
    func testTheDriversMappingAgreesWithTheChipInEveryMode() throws {
        for kind in [ActuatorKind.lra, .erm] {
            for loop in DRV2605Loop.allCases {
                for format in DRV2605RealtimeFormat.allCases {
                    for direction in DRV2605InputDirection.allCases where !(loop == .open && direction == .unidirectional) {
                        let ratings = DRV2605Ratings(kind: kind, loop: loop, ratedVoltage: kind == .lra ? 2.0 : 3.0,
                                                     overdriveVoltage: kind == .lra ? 2.8 : 3.6, resonantFrequency: kind == .lra ? 175 : nil)
                        let configuration = DRV2605Configuration(ratings: ratings, realtimeFormat: format, inputDirection: direction)
                        try assertAgreement(configuration, name: "\(kind) \(loop) \(format) \(direction)")
                    }
                }
            }
        }
    }

    private func assertAgreement(_ configuration: DRV2605Configuration, name: String) throws {
        let board = SimulatedBoard()
        let actuator = DRV2605Actuator(name: "main", driver: board.makeDriver(), configuration: configuration)
        try actuator.wake()
        let input = try DRV2605RegisterValues(configuration: configuration, variant: .drv2605L).realtimeInput
        let steps = try XCTUnwrap(actuator.capabilities.amplitudeSteps, name)
        XCTAssertEqual(steps, input.ratedSteps, name)
        let lowest = actuator.capabilities.supportsSignedAmplitude ? -steps : 0
        for step in lowest...steps {
            let amplitude = Double(step) / Double(steps)
            try actuator.setAmplitude(amplitude)
            // The chip reports a share of its full scale; the driver's amplitude 1 is `ratedSteps`
            // of the format's `fullScaleSteps`.
            let expected = amplitude * Double(steps) / Double(input.fullScaleSteps)
            XCTAssertEqual(board.chip.drive.level(at: board.clock.now).amplitude, expected, accuracy: 1e-9, "\(name), step \(step)")
        }
        try actuator.stop()
        XCTAssertEqual(board.chip.drive.level(at: board.clock.now).amplitude, 0, "stopped: \(name)")
    }

    /// Open loop: RTP full scale is OD_CLAMP (a 2.8 V peak clamp gives 2.65 V rms across a 175 Hz
    /// LRA), so amplitude 1 must be less than full scale for a 2.0 V rms LRA: ≤ 2.0 V rms held.
    func testSustainedOpenLoopDriveStaysAtOrBelowTheRatedVoltage() throws {
        for kind in [ActuatorKind.lra, .erm] {
            let rated = kind == .lra ? 2.0 : 3.0
            let ratings = DRV2605Ratings(kind: kind, loop: .open, ratedVoltage: rated, overdriveVoltage: kind == .lra ? 2.8 : 4.5, resonantFrequency: kind == .lra ? 175 : nil)
            let board = SimulatedBoard()
            let actuator = DRV2605Actuator(name: "main", driver: board.makeDriver(), configuration: DRV2605Configuration(ratings: ratings))
            try actuator.wake()
            if kind == .lra { try actuator.setDriveFrequency(140) }
            try actuator.setAmplitude(1)
            let start = board.clock.now
            board.clock.advance(by: .seconds(1))
            try actuator.stop()
            let rms = board.chip.drive.maximumRMSVolts(over: .milliseconds(100), from: start, to: board.clock.now)
            XCTAssertLessThanOrEqual(rms, rated, "\(kind)")
            // And not needlessly weak: within 5 % of the rating.
            XCTAssertGreaterThan(rms, rated * 0.95, "\(kind)")
        }
    }
}
