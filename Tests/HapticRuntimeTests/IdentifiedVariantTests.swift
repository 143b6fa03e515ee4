import ActuatorHAL
import HardwareMocks
import XCTest
@testable import HapticRuntime

/// Content is compiled against the chip that answered, not the one the board file names.
final class IdentifiedVariantTests: XCTestCase {
    func testABoardThatNamesADRV2605LButHasADRV2604PlaysTapsAsRealTimePulses() throws {
        // The actuator expects a DRV2605L (the default); the chip on the bus is a DRV2604 (no ROM).
        let rig = EngineRig(variant: .drv2604)
        XCTAssertEqual(rig.engine.capabilities["main"]?.romLibrary, .lra, "before waking, the board's DRV2605L is assumed")
        try rig.engine.start()
        try rig.engine.wakeActuators()
        XCTAssertEqual(rig.actuator.variant, .drv2604)
        XCTAssertNil(rig.engine.capabilities["main"]?.romLibrary, "after waking, the DRV2604 that answered decides")
        let player = try rig.engine.makePlayer(with: TestPatterns.taps(at: [0, 0.2]))
        try player.start(atTime: 0.01)
        rig.run(until: 0.5)
        XCTAssertTrue(rig.goTimes.isEmpty, "no ROM trigger on a chip without ROM")
        XCTAssertGreaterThan(rig.drive(at: 0.012), 0.3, "the first tap drove the actuator through RTP")
        XCTAssertGreaterThan(rig.drive(at: 0.212), 0.3, "and the second")
        XCTAssertEqual(rig.drive(at: 0.5), 0)
    }
}
