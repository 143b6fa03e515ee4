import ActuatorHAL
@testable import ActuatorHALLinux
import Foundation
import SystemPackage
import XCTest

final class EmergencyStopTests: XCTestCase {
    /// A table on a descriptor that is open (a pipe), so the crash handler accepts it.
    private func stop(on descriptor: CInt, operations: [StopOperation]) throws -> ChipStop {
        try ChipStop(busDescriptor: descriptor, busName: "pipe", chipAddress: 0x5A, smbusOnly: false, operations: operations)
    }

    func testArmingAndDisarmingAChipBehindAMultiplexer() throws {
        let pipe = Pipe()
        let descriptor = pipe.fileHandleForWriting.fileDescriptor
        let before = EmergencyStop.armedCount
        try EmergencyStop.arm(stop(on: descriptor, operations: [
            .selectChannel(mux: 0x70, mask: 0x02),
            .writeRegister(chip: 0x5A, register: 0x0C, value: 0),
            .writeRegister(chip: 0x5A, register: 0x02, value: 0),
            .writeRegister(chip: 0x5A, register: 0x01, value: 0x40),
        ]))
        XCTAssertEqual(EmergencyStop.armedCount, before + 1)
        EmergencyStop.disarm(descriptor: descriptor)
        XCTAssertEqual(EmergencyStop.armedCount, before)
    }

    func testAClosedBusCannotBeArmed() throws {
        let closed = try ChipStop(
            busDescriptor: -1, busName: "/dev/i2c-9", chipAddress: 0x5A, smbusOnly: false,
            operations: [.writeRegister(chip: 0x5A, register: 0x01, value: 0x40)]
        )
        XCTAssertThrowsError(try EmergencyStop.arm(closed)) { error in
            XCTAssertEqual((error as? EmergencyStopError)?.errno, .invalidArgument)
            XCTAssertTrue("\(error)".contains("0x5A on /dev/i2c-9"), "\(error)")
        }
    }

    func testATableWithoutStepsIsRefused() throws {
        let pipe = Pipe()
        XCTAssertThrowsError(try EmergencyStop.arm(stop(on: pipe.fileHandleForWriting.fileDescriptor, operations: []))) { error in
            XCTAssertEqual((error as? EmergencyStopError)?.errno, .invalidArgument)
        }
    }
}
