import ActuatorHAL
import Foundation
import HardwareMocks
import XCTest

final class TCA9548ATests: XCTestCase {
    private let muxAddress: I2CAddress = 0x70
    private let chipAddress: I2CAddress = 0x5A

    /// A bus with a switch at 0x70 and a register chip at 0x5A behind each of channels 0 and 3.
    private func makeBoard() throws -> (bus: SimulatedI2CBus, mux: TCA9548A, chips: [Int: SimulatedRegisterFile]) {
        let bus = SimulatedI2CBus(name: "sim", clock: VirtualClock())
        let model = try TCA9548AModel(address: muxAddress)
        model.attach(to: bus)
        var chips: [Int: SimulatedRegisterFile] = [:]
        for channel in [0, 3] {
            let chip = SimulatedRegisterFile()
            try model.channel(channel).attach(chip, at: chipAddress)
            chips[channel] = chip
        }
        return (bus, try TCA9548A(parent: bus, address: muxAddress), chips)
    }

    func testEverySelectedAccessIsPrecededByItsSelectWrite() throws {
        let (bus, mux, chips) = try makeBoard()
        let channel3 = try mux.channel(3)
        let channel0 = try mux.channel(0)

        try channel3.write(address: chipAddress, [0x01, 0x05])
        let readBack = try channel3.writeRead(address: chipAddress, [0x01], readCount: 1)
        try channel0.write(address: chipAddress, [0x01, 0x07])

        XCTAssertEqual(readBack, [0x05])
        XCTAssertEqual(chips[3]?.registers[1], 0x05)
        XCTAssertEqual(chips[0]?.registers[1], 0x07, "channel 0's chip got only its own write")
        XCTAssertEqual(bus.log.map(\.address), [muxAddress, chipAddress, muxAddress, chipAddress, muxAddress, chipAddress])
        XCTAssertEqual(bus.log.map(\.operations), [
            [.write([0x08])], [.write([0x01, 0x05])],
            [.write([0x08])], [.write([0x01]), .read(count: 1)],
            [.write([0x01])], [.write([0x01, 0x07])],
        ], "the switch is re-selected before every access, even on the same channel")
        XCTAssertTrue(bus.log.allSatisfy { $0.error == nil })
    }

    func testChannelNameAndSpeedComeFromTheParent() throws {
        let bus = SimulatedI2CBus(name: "i2c-1", speedHz: 100_000, clock: VirtualClock())
        let channel = try TCA9548A(parent: bus, address: 0x71).channel(3)
        XCTAssertEqual(channel.name, "i2c-1/mux@0x71/ch3")
        XCTAssertEqual(channel.speedHz, 100_000)
    }

    func testWireTimeOfAChannelIncludesTheSelectWriteAndMatchesTheSimulatedBus() throws {
        let (bus, mux, _) = try makeBoard()
        let channel: any I2CBus = try mux.channel(3)
        let registerWrite: [I2COperation] = [.write([0x01, 0x00])]
        // Select (20 SCL cycles) + register write (29 cycles) at 400 kHz.
        XCTAssertEqual(channel.wireTime(of: registerWrite), .nanoseconds(50_000 + 72_500))

        let before = bus.clock.now
        _ = try channel.transaction(address: chipAddress, registerWrite)
        XCTAssertEqual(bus.clock.now - before, channel.wireTime(of: registerWrite), "the budget and the simulated bus agree")
    }

    func testChannelIndexOutsideZeroToSevenIsATypedError() throws {
        let bus = SimulatedI2CBus(clock: VirtualClock())
        let mux = try TCA9548A(parent: bus)
        for index in [-1, 8, 42] {
            XCTAssertThrowsError(try mux.channel(index)) { error in
                XCTAssertEqual(error as? TCA9548AError, .invalidChannel(index, mux: "sim/mux@0x70"))
            }
        }
        XCTAssertEqual(try mux.channel(7).index, 7)
        XCTAssertTrue(bus.log.isEmpty, "validation needs no bus traffic")
    }

    func testAddressOutsideTheStrappingRangeIsATypedError() throws {
        let bus = SimulatedI2CBus(clock: VirtualClock())
        for address: I2CAddress in [0x5A, 0x6F, 0x78] {
            XCTAssertThrowsError(try TCA9548A(parent: bus, address: address)) { error in
                XCTAssertEqual(error as? TCA9548AError, .invalidAddress(address))
            }
        }
        XCTAssertNoThrow(try TCA9548A(parent: bus, address: 0x77))
    }

    func testMissingSwitchIsTheParentsNackForTheSwitchAddress() throws {
        let bus = SimulatedI2CBus(clock: VirtualClock())
        let channel = try TCA9548A(parent: bus, address: 0x72).channel(1)
        XCTAssertThrowsError(try channel.write(address: chipAddress, [0x01, 0x00])) { error in
            XCTAssertEqual(error as? I2CError, .noAcknowledge(bus: "sim", address: 0x72))
        }
        XCTAssertEqual(bus.log.map(\.address), [0x72], "no access is attempted when the select failed")
    }

    func testMissingDeviceBehindTheSwitchIsANackForTheDevice() throws {
        let (bus, mux, _) = try makeBoard()
        XCTAssertThrowsError(try mux.channel(5).write(address: chipAddress, [0x01, 0x00])) { error in
            XCTAssertEqual(error as? I2CError, .noAcknowledge(bus: "sim", address: chipAddress))
        }
        XCTAssertEqual(bus.log.map(\.error), [nil, .noAcknowledge(bus: "sim", address: chipAddress)])
    }

    func testSelectMaskAndReadBack() throws {
        let (_, mux, _) = try makeBoard()
        try mux.select(mask: 0b1000_0001)
        XCTAssertEqual(try mux.selectedMask(), 0b1000_0001)
        try mux.select(mask: 0)
        XCTAssertEqual(try mux.selectedMask(), 0)
    }

    func testChannelsUsedFromTwoThreadsNeverInterleaveSelectAndAccess() throws {
        let (bus, mux, chips) = try makeBoard()
        let channels = [try mux.channel(0), try mux.channel(3)]
        let rounds = 300
        let failures = FailureList()
        let group = DispatchGroup()
        for (thread, channel) in channels.enumerated() {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                for round in 0..<rounds {
                    do {
                        // Register = thread number, so each chip's registers say whose writes it got.
                        try channel.write(address: 0x5A, [UInt8(0x10 + thread), UInt8(round & 0xFF)])
                    } catch {
                        failures.append("\(channel.name) round \(round): \(error)")
                    }
                }
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(failures.all, [])

        XCTAssertEqual(chips[0]?.receivedWrites.count, rounds)
        XCTAssertEqual(chips[3]?.receivedWrites.count, rounds)
        XCTAssertTrue(chips[0]?.receivedWrites.allSatisfy { $0.first == 0x10 } ?? false, "channel 0's chip saw only thread 0")
        XCTAssertTrue(chips[3]?.receivedWrites.allSatisfy { $0.first == 0x11 } ?? false, "channel 3's chip saw only thread 1")
        let log = bus.log
        XCTAssertEqual(log.count, 4 * rounds)
        for pairStart in stride(from: 0, to: log.count, by: 2) {
            guard case .write(let select) = log[pairStart].operations.first,
                  case .write(let access) = log[pairStart + 1].operations.first else {
                return XCTFail("entry \(pairStart) is not a select followed by an access")
            }
            XCTAssertEqual(log[pairStart].address, muxAddress)
            XCTAssertEqual(select, access.first == 0x10 ? [0x01] : [0x08], "access \(pairStart + 1) follows its own select")
        }
    }
}

/// Collects failures from worker threads for the test thread to assert on.
private final class FailureList: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []

    func append(_ item: String) {
        lock.withLock { items.append(item) }
    }

    var all: [String] { lock.withLock { items } }
}
