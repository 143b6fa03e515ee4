import ActuatorHAL
import HardwareMocks
import XCTest

final class TCA9548AModelTests: XCTestCase {
    fileprivate let muxAddress: I2CAddress = 0x74
    fileprivate let chipAddress: I2CAddress = 0x5A

    fileprivate func makeBus() throws -> (SimulatedI2CBus, TCA9548AModel) {
        let bus = SimulatedI2CBus(clock: VirtualClock())
        let model = try TCA9548AModel(address: muxAddress)
        model.attach(to: bus)
        return (bus, model)
    }

    func testControlRegisterStartsAllOffIsWrittenAndReadBack() throws {
        let (bus, model) = try makeBus()
        XCTAssertEqual(try bus.transaction(address: muxAddress, [.read(count: 1)]), [[0x00]])
        try bus.write(address: muxAddress, [0x24])
        XCTAssertEqual(model.control, 0x24)
        XCTAssertEqual(model.selectedChannels, [2, 5])
        XCTAssertEqual(try bus.transaction(address: muxAddress, [.read(count: 1)]), [[0x24]])
    }

    func testOfSeveralBytesTheLastIsKept() throws {
        let (bus, model) = try makeBus()
        try bus.write(address: muxAddress, [0x01, 0x02, 0x80])
        XCTAssertEqual(model.control, 0x80)
    }

    func testResetTurnsAllChannelsOff() throws {
        let (bus, model) = try makeBus()
        let chip = SimulatedRegisterFile()
        try model.channel(1).attach(chip, at: chipAddress)
        try bus.write(address: muxAddress, [0x02])
        model.reset()
        XCTAssertEqual(model.control, 0x00)
        XCTAssertThrowsError(try bus.write(address: chipAddress, [0x00]))
    }

    func testDeviceBehindAChannelAnswersOnlyWhileItsBitIsSet() throws {
        let (bus, model) = try makeBus()
        let chip = SimulatedRegisterFile()
        chip.store(0xA7, at: 0x00)
        try model.channel(6).attach(chip, at: chipAddress)

        XCTAssertThrowsError(try bus.writeRead(address: chipAddress, [0x00], readCount: 1)) { error in
            XCTAssertEqual(error as? I2CError, .noAcknowledge(bus: "sim", address: chipAddress))
        }
        try bus.write(address: muxAddress, [0x01])
        XCTAssertThrowsError(try bus.writeRead(address: chipAddress, [0x00], readCount: 1), "channel 0 does not reach channel 6")
        try bus.write(address: muxAddress, [0x40])
        XCTAssertEqual(try bus.writeRead(address: chipAddress, [0x00], readCount: 1), [0xA7])
        try bus.write(address: muxAddress, [0x00])
        XCTAssertThrowsError(try bus.writeRead(address: chipAddress, [0x00], readCount: 1))
    }

    func testTwoSelectedChannelsAreOneWireWritesReachBothReadsAreWiredAnd() throws {
        let (bus, model) = try makeBus()
        let first = SimulatedRegisterFile()
        let second = SimulatedRegisterFile()
        first.store(0b1100_1010, at: 0x10)
        second.store(0b1010_1111, at: 0x10)
        try model.channel(0).attach(first, at: chipAddress)
        try model.channel(1).attach(second, at: chipAddress)

        try bus.write(address: muxAddress, [0x03])
        try bus.write(address: chipAddress, [0x20, 0x5C])
        XCTAssertEqual(first.registers[0x20], 0x5C)
        XCTAssertEqual(second.registers[0x20], 0x5C)
        XCTAssertEqual(try bus.writeRead(address: chipAddress, [0x10], readCount: 1), [0b1000_1010])
    }

    func testAChipThatDoesNotAcknowledgeIgnoresTheSharedTransfer() throws {
        let (bus, model) = try makeBus()
        let awake = SimulatedRegisterFile(fill: 0xF0)
        let silent = SimulatedRegisterFile(fill: 0x0F)
        silent.acknowledges = false
        try model.channel(2).attach(awake, at: chipAddress)
        try model.channel(3).attach(silent, at: chipAddress)

        try bus.write(address: muxAddress, [0x0C])
        XCTAssertEqual(try bus.writeRead(address: chipAddress, [0x00], readCount: 1), [0xF0])
        XCTAssertEqual(silent.receivedWrites, [])
    }

    func testSwitchesCascadeThroughAChannel() throws {
        let (bus, model) = try makeBus()
        let inner = try TCA9548AModel(address: 0x71)
        try model.channel(7).attach(inner, at: 0x71)
        try model.channel(7).attachDownstream(inner)
        let chip = SimulatedRegisterFile(fill: 0x33)
        try inner.channel(4).attach(chip, at: chipAddress)

        try bus.write(address: muxAddress, [0x80])
        try bus.write(address: 0x71, [0x10])
        XCTAssertEqual(try bus.writeRead(address: chipAddress, [0x00], readCount: 1), [0x33])
    }

    func testAddressAndChannelAreValidated() throws {
        XCTAssertThrowsError(try TCA9548AModel(address: 0x6F)) { error in
            XCTAssertEqual(error as? TCA9548AError, .invalidAddress(0x6F))
        }
        let model = try TCA9548AModel(address: 0x77)
        XCTAssertThrowsError(try model.channel(8)) { error in
            XCTAssertEqual(error as? TCA9548AError, .invalidChannel(8, mux: "mux@0x77"))
        }
    }
}

extension TCA9548AModelTests {
    func testADeviceOnTheParentAndOneBehindASelectedChannelShareTheAddress() throws {
        let (bus, model) = try makeBus()
        let upstream = SimulatedRegisterFile(fill: 0x3C)
        let downstream = SimulatedRegisterFile(fill: 0x0F)
        bus.attach(upstream, at: chipAddress)
        try model.channel(4).attach(downstream, at: chipAddress)

        XCTAssertEqual(try bus.writeRead(address: chipAddress, [0x00], readCount: 1), [0x3C], "channel off: only the parent's device")
        try bus.write(address: muxAddress, [0x10])
        XCTAssertEqual(try bus.writeRead(address: chipAddress, [0x00], readCount: 1), [0x0C], "channel on: one wire, wired-AND")
        XCTAssertEqual(downstream.receivedWrites, [[0x00]])
    }
}
