import ActuatorHAL
@testable import ActuatorHALLinux
import CDrivers
import HardwareMocks
import XCTest

/// The stop table a crash handler or the crash guardian issues for a chip: its route through
/// multiplexers, the writes, the RTP format's silence and the encoding per adapter kind.
final class ChipStopTests: XCTestCase {
    private let clock = VirtualClock()

    /// An i2c-dev bus for building tables: /dev/null opens like a node and answers no I2C_FUNCS,
    /// so it counts as an adapter with plain I2C.
    private func linuxBus() throws -> LinuxI2CBus {
        try LinuxI2CBus(path: "/dev/null")
    }

    private func chip(on bus: any I2CBus) -> DRV2605 {
        DRV2605(bus: bus, address: 0x5A, clock: clock)
    }

    private let signedStopWrites: [StopOperation] = [
        .writeRegister(chip: 0x5A, register: 0x0C, value: 0x00),
        .writeRegister(chip: 0x5A, register: 0x02, value: 0x00),
        .writeRegister(chip: 0x5A, register: 0x01, value: 0x40),
    ]

    func testAChipOnTheBusStopsWithGOThenRTPSilenceThenStandby() throws {
        let bus = try linuxBus()
        let stop = try ChipStop(stopping: chip(on: bus), realtimeInput: DRV2605RealtimeInput(format: .signed, direction: .bidirectional, loop: .closed))
        XCTAssertEqual(stop.operations, signedStopWrites)
        XCTAssertEqual(stop.busName, "/dev/null")
        XCTAssertEqual(stop.busDescriptor, bus.descriptor)
        XCTAssertEqual(stop.operations.map(\.description), ["0x5A[0x0C] ← 0x00", "0x5A[0x02] ← 0x00", "0x5A[0x01] ← 0x40"])
    }

    func testAChipBehindAMultiplexerSelectsItsChannelFirst() throws {
        let bus = try linuxBus()
        let channel = try TCA9548A(parent: bus, address: 0x71).channel(5)
        let stop = try ChipStop(stopping: chip(on: channel), realtimeInput: DRV2605RealtimeInput(format: .signed, direction: .bidirectional, loop: .closed))
        XCTAssertEqual(stop.operations, [.selectChannel(mux: 0x71, mask: 0x20)] + signedStopWrites)
        XCTAssertEqual(stop.busDescriptor, bus.descriptor, "the steps go to the mux's parent bus")
    }

    func testCascadedMultiplexersAreSelectedOutermostFirst() throws {
        let outer = try TCA9548A(parent: try linuxBus(), address: 0x70).channel(2)
        let inner = try TCA9548A(parent: outer, address: 0x74).channel(6)
        let stop = try ChipStop(stopping: chip(on: inner), realtimeInput: DRV2605RealtimeInput(format: .signed, direction: .bidirectional, loop: .closed))
        XCTAssertEqual(Array(stop.operations.prefix(2)), [.selectChannel(mux: 0x70, mask: 0x04), .selectChannel(mux: 0x74, mask: 0x40)])
    }

    /// Signed 0x00 and unsigned bidirectional 0x80 are zero drive (mid-scale); unsigned 0x00 would
    /// be full negative drive in bidirectional open loop, and is zero with unidirectional input.
    func testRTPInputIsTheSilenceOfTheConfiguredFormat() throws {
        let cases: [(DRV2605RealtimeFormat, DRV2605InputDirection, UInt8)] = [(.signed, .bidirectional, 0x00), (.unsigned, .bidirectional, 0x80), (.unsigned, .unidirectional, 0x00)]
        for (format, direction, silence) in cases {
            let input = DRV2605RealtimeInput(format: format, direction: direction, loop: .closed)
            let writes = DRV2605.stopWrites(realtimeInput: input)
            XCTAssertEqual(writes.first { $0.register == .realtimeInput }?.value, silence, "\(format) \(direction)")
            XCTAssertEqual(silence, try input.register(amplitude: 0))
            let stop = try ChipStop(stopping: chip(on: try linuxBus()), realtimeInput: input)
            XCTAssertTrue(stop.operations.contains(.writeRegister(chip: 0x5A, register: 0x02, value: silence)), "\(stop.operations)")
        }
    }

    func testOperationsAreI2CWritesOrSMBusCommandsByAdapter() {
        let select = StopOperation.selectChannel(mux: 0x70, mask: 0x08)
        let write = StopOperation.writeRegister(chip: 0x5A, register: 0x01, value: 0x40)
        XCTAssertEqual(StopStep(select, smbusOnly: false), .i2cWrite(address: 0x70, bytes: [0x08]))
        XCTAssertEqual(StopStep(write, smbusOnly: false), .i2cWrite(address: 0x5A, bytes: [0x01, 0x40]))
        XCTAssertEqual(StopStep(select, smbusOnly: true), .smbusWriteByte(address: 0x70, byte: 0x08))
        XCTAssertEqual(StopStep(write, smbusOnly: true), .smbusWriteByteData(address: 0x5A, register: 0x01, value: 0x40))
    }

    func testTheCStepsCarryTheProtocolAndBytesTheKernelIsAskedFor() throws {
        let stop = try ChipStop(
            busDescriptor: 7, busName: "/dev/i2c-7", chipAddress: 0x5A, smbusOnly: true,
            operations: [.selectChannel(mux: 0x72, mask: 0x01), .writeRegister(chip: 0x5A, register: 0x02, value: 0x80)]
        )
        let steps = stop.cSteps
        XCTAssertEqual(steps.map(\.bus_fd), [7, 7])
        XCTAssertEqual(steps.map { UInt32($0.protocol) }, [HB_STOP_SMBUS_WRITE_BYTE.rawValue, HB_STOP_SMBUS_WRITE_BYTE_DATA.rawValue])
        XCTAssertEqual(steps.map(\.address), [0x72, 0x5A])
        XCTAssertEqual(steps.map { [$0.bytes.0, $0.bytes.1] }, [[0x01, 0x00], [0x02, 0x80]])
        XCTAssertEqual(steps.compactMap(StopStep.init), stop.steps, "decoding gives back what was encoded")
        let combined = StopStep.i2cWrite(address: 0x5A, bytes: [0x0C, 0x00]).cStep(bus: 3)
        XCTAssertEqual(UInt32(combined.protocol), HB_STOP_I2C_WRITE.rawValue)
        XCTAssertEqual(combined.length, 2)
    }

    func testAChipOnASimulatedBusHasNoStopTable() {
        XCTAssertThrowsError(try ChipStop(stopping: chip(on: SimulatedI2CBus(clock: clock)), realtimeInput: DRV2605RealtimeInput(format: .signed, direction: .bidirectional, loop: .closed))) { error in
            XCTAssertEqual(error as? ChipStopError, .notOnLinuxBus(chip: 0x5A, bus: "sim"))
        }
    }

    func testMultiplexersCascadedPastTheTableAreRefused() throws {
        var bus: any I2CBus = try linuxBus()
        for _ in 0..<6 { bus = try TCA9548A(parent: bus, address: 0x70).channel(0) }
        XCTAssertThrowsError(try ChipStop(stopping: chip(on: bus), realtimeInput: DRV2605RealtimeInput(format: .signed, direction: .bidirectional, loop: .closed))) { error in
            guard case .tooManyOperations(_, _, let count, let limit) = error as? ChipStopError else { return XCTFail("\(error)") }
            XCTAssertEqual(count, 9)
            XCTAssertEqual(limit, 8)
        }
    }
}
