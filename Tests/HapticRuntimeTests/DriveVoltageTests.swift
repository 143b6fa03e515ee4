import ActuatorHAL
import HardwareMocks
import XCTest
@testable import HapticRuntime

/// Sustained drive never exceeds the actuator's rated voltage, whatever the loop: content at full
/// intensity, compiled and played by the engine, measured across the simulated chip's output.
final class DriveVoltageTests: XCTestCase {
    private func maximumRMS(loop: DRV2605Loop, sharpness: Double) throws -> Double {
        let configuration = DRV2605Configuration(ratings: DRV2605Ratings(kind: .lra, loop: loop, ratedVoltage: 2.0, overdriveVoltage: 2.8, resonantFrequency: 175))
        let rig = EngineRig(configuration: configuration)
        try rig.engine.start()
        let player = try rig.engine.makePlayer(with: HapticPattern(events: [TestPatterns.continuous(duration: 1, intensity: 1, sharpness: sharpness)]))
        try player.start(atTime: 0.01)
        rig.run(until: 1.5)
        XCTAssertEqual(rig.drive(at: 1.5), 0, "the event ended")
        return rig.board.chip.drive.maximumRMSVolts(over: .milliseconds(100), from: .zero, to: rig.now)
    }

    func testAFullScaleContinuousEventStaysWithinTheRatedVoltageOverAny100ms() throws {
        // Open loop: RTP full scale is the 2.8 V clamp (2.65 V rms at resonance). Sharpness 0 drives
        // at 0.8 × resonance, where the open-loop RMS of full scale is highest.
        for sharpness in [0.0, 0.5, 1.0] {
            let rms = try maximumRMS(loop: .open, sharpness: sharpness)
            XCTAssertLessThanOrEqual(rms, 2.0, "open loop, sharpness \(sharpness)")
            XCTAssertGreaterThan(rms, 1.8, "open loop, sharpness \(sharpness): full intensity is close to rated")
        }
        XCTAssertLessThanOrEqual(try maximumRMS(loop: .closed, sharpness: 1), 2.0, "closed loop")
    }
}
