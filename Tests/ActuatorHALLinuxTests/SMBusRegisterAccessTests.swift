import ActuatorHAL
import ActuatorHALLinux
import XCTest

final class SMBusRegisterAccessTests: XCTestCase {
    func testARegisterReadBecomesOneByteDataReadPerRegister() throws {
        XCTAssertEqual(try SMBusRegisterAccess.commands(for: [.write([0x1E]), .read(count: 3)], bus: "b"),
                       [.readByteData(register: 0x1E), .readByteData(register: 0x1F), .readByteData(register: 0x20)])
    }

    func testARegisterWriteBecomesOneByteDataWritePerByteFromThePointerOn() throws {
        XCTAssertEqual(try SMBusRegisterAccess.commands(for: [.write([0x04, 0x01, 0x2F])], bus: "b"),
                       [.writeByteData(register: 0x04, value: 0x01), .writeByteData(register: 0x05, value: 0x2F)])
    }

    func testShapesWithoutAnSMBusEquivalentAreRefusedByName() {
        let refused: [[I2COperation]] = [
            [.read(count: 1)],
            [.write([0x01])],
            [.write([0x01, 0x02]), .read(count: 1)],
            [.write([0x00]), .read(count: 0)],
            [.write([0xFF]), .read(count: 2)],
            [.write([0xFF, 0x00, 0x00])],
            [.write([0x00]), .write([0x01]), .read(count: 1)],
        ]
        for operations in refused {
            XCTAssertThrowsError(try SMBusRegisterAccess.commands(for: operations, bus: "/dev/i2c-0"), "\(operations)") { error in
                guard case .unsupportedTransaction(let bus, let reason) = error as? I2CError else {
                    return XCTFail("expected unsupportedTransaction for \(operations), got \(error)")
                }
                XCTAssertEqual(bus, "/dev/i2c-0")
                XCTAssertTrue(reason.contains("SMBus only"), reason)
            }
        }
    }

    func testANodeThatIsNotAnAdapterKeepsCombinedTransfers() throws {
        XCTAssertFalse(try LinuxI2CBus(path: "/dev/null").usesSMBusRegisterAccess)
    }
}
