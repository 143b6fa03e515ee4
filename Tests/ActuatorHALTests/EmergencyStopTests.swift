@testable import ActuatorHAL
import Foundation
import SystemPackage
import XCTest

final class EmergencyStopTests: XCTestCase {
    func testTheCrashWritesSilenceTheChip() {
        let writes = EmergencyStop.drv2605Writes.map { "\($0.register.datasheetName)←\($0.value)" }
        XCTAssertEqual(writes, ["RTP_INPUT←0", "GO←0", "MODE←64"])
    }

    func testArmingAndDisarmingADescriptor() throws {
        let pipe = Pipe()
        let descriptor = pipe.fileHandleForWriting.fileDescriptor
        let before = EmergencyStop.armedCount
        try EmergencyStop.arm(descriptor: descriptor, address: 0x5A, busName: "pipe")
        XCTAssertEqual(EmergencyStop.armedCount, before + 1)
        EmergencyStop.disarm(descriptor: descriptor)
        XCTAssertEqual(EmergencyStop.armedCount, before)
    }

    func testAClosedBusCannotBeArmed() {
        XCTAssertThrowsError(try EmergencyStop.arm(descriptor: -1, address: 0x5A, busName: "/dev/i2c-9")) { error in
            XCTAssertEqual((error as? EmergencyStopError)?.errno, .invalidArgument)
            XCTAssertTrue("\(error)".contains("0x5A on /dev/i2c-9"), "\(error)")
        }
    }
}
