import ActuatorHAL
import HardwareMocks
import XCTest

/// The kernel lane's companion logic, with a plain register file standing in for i2c-stub and the
/// test writing into it the way a host would.
final class DRV2605RegisterStubMirrorTests: XCTestCase {
    private let address: I2CAddress = 0x5A
    private var clock: VirtualClock!
    private var stub: SimulatedRegisterFile!
    private var mirror: DRV2605RegisterStubMirror!

    override func setUpWithError() throws {
        clock = VirtualClock()
        let bus = SimulatedI2CBus(clock: clock)
        stub = SimulatedRegisterFile()
        bus.attach(stub, at: address)
        mirror = DRV2605RegisterStubMirror(bus: bus, address: address, variant: .drv2605L, clock: clock, enable: .high)
        try mirror.start()
    }

    func testStartFillsTheAllZeroStubWithResetValuesAndDeviceID() {
        XCTAssertEqual(stub.registers[0x00] >> 5, 7, "STATUS.DEVICE_ID of a DRV2605L")
        XCTAssertEqual(stub.registers[0x01], 0x40, "MODE: standby")
        XCTAssertEqual(stub.registers[0x16], 0x3E, "RATED_VOLTAGE reset value")
    }

    func testDeviceResetWrittenByTheHostClears() throws {
        stub.store(0x00, at: 0x01)
        stub.store(0x55, at: 0x16)
        try mirror.poll(enable: .high)
        XCTAssertEqual(stub.registers[0x16], 0x55)
        stub.store(0x80, at: 0x01)
        let events = try mirror.poll(enable: .high)
        XCTAssertTrue(events.contains(.hostWrote(register: 0x01, value: 0x80)), "\(events)")
        XCTAssertEqual(stub.registers[0x01], 0x40)
        XCTAssertEqual(stub.registers[0x16], 0x3E, "DEV_RESET restores every register")
    }

    /// EN is read after the register file: a host that raises EN and initialises the chip while a
    /// poll is under way keeps its writes. Read before the file, EN still low made the model reset
    /// and write its reset values over that initialisation (the kernel lane's SIGKILL scenario).
    func testAHostWakingTheChipDuringAPollKeepsItsInitialisation() throws {
        try mirror.poll(enable: .low)
        let during = try mirror.poll(enable: {
            // The host, between the poll's read of the register file and its read of EN: it raises
            // EN, then writes.
            self.stub.store(0x55, at: 0x16)
            return .high
        }())
        XCTAssertEqual(during, [.enable(.high)], "the write came after the register file was read")
        let after = try mirror.poll(enable: .high)
        XCTAssertEqual(after, [.hostWrote(register: 0x16, value: 0x55)])
        XCTAssertEqual(stub.registers[0x16], 0x55, "RATED_VOLTAGE as the host wrote it")
        XCTAssertEqual(mirror.model.register(0x16), 0x55)
    }

    func testGoStaysSetWhileTheSequencePlaysAndClearsAfterIt() throws {
        stub.store(0x00, at: 0x01)
        stub.store(0x06, at: 0x03)
        stub.store(0x01, at: 0x04)
        stub.store(0x00, at: 0x05)
        stub.store(0x01, at: 0x0C)
        try mirror.poll(enable: .high)
        XCTAssertEqual(stub.registers[0x0C], 0x01, "GO set while the effect plays")
        clock.advance(by: DRV2605Model.estimatedDuration(ofEffect: 1) + .milliseconds(1))
        let events = try mirror.poll(enable: .high)
        XCTAssertEqual(stub.registers[0x0C], 0x00)
        XCTAssertTrue(events.contains(.chipSet(register: 0x0C, value: 0x00)), "\(events)")
    }

    func testGoWrittenInTheSamePollAsItsModeStillStarts() throws {
        // GO (0x0C) lies between MODE and the sequencer/library registers in address order, but it
        // reaches the model last: GO in standby is ignored and the sequencer is read when GO lands.
        stub.store(0x00, at: 0x01)
        stub.store(0x01, at: 0x0C)
        stub.store(0x06, at: 0x03)
        stub.store(0x2F, at: 0x04)
        stub.store(0x00, at: 0x05)
        try mirror.poll(enable: .high)
        XCTAssertEqual(mirror.model.register(0x0C), 0x01)
        XCTAssertGreaterThan(mirror.model.drive.changes.count, 0, "the effect drives the output")
    }

    func testEnableLowLosesTheHostsConfiguration() throws {
        stub.store(0x00, at: 0x01)
        stub.store(0x50, at: 0x16)
        try mirror.poll(enable: .high)
        XCTAssertEqual(stub.registers[0x16], 0x50)
        let events = try mirror.poll(enable: .low)
        XCTAssertTrue(events.contains(.enable(.low)))
        XCTAssertEqual(stub.registers[0x16], 0x3E)
        XCTAssertEqual(stub.registers[0x01], 0x40)
    }

    func testWritesWhileEnableIsLowAreIgnoredAndReadOnlyRegistersKeepTheChipsValues() throws {
        try mirror.poll(enable: .low)
        stub.store(0x50, at: 0x16)
        try mirror.poll(enable: .low)
        XCTAssertEqual(stub.registers[0x16], 0x3E)
        stub.store(0x00, at: 0x00)
        try mirror.poll(enable: .high)
        XCTAssertEqual(stub.registers[0x00] >> 5, 7)
    }

    func testAfterDeviceResetModeIsWrittenBackLast() throws {
        stub.store(0x00, at: 0x01)
        stub.store(0x55, at: 0x16)
        try mirror.poll(enable: .high)
        stub.store(0x80, at: 0x01)
        let written = try mirror.poll(enable: .high).compactMap { event -> UInt8? in
            if case .chipSet(let register, _) = event { return register }
            return nil
        }
        XCTAssertEqual(written.last, 0x01, "MODE (DEV_RESET cleared) after every other register: \(written)")
        XCTAssertTrue(written.contains(0x16))
    }

    func testAutoCalibrationWritesItsResults() throws {
        stub.store(0x07, at: 0x01)
        stub.store(0x53, at: 0x16)
        stub.store(0x01, at: 0x0C)
        try mirror.poll(enable: .high)
        clock.advance(by: .seconds(2))
        try mirror.poll(enable: .high)
        XCTAssertEqual(stub.registers[0x0C], 0x00)
        XCTAssertEqual(stub.registers[0x18], mirror.model.register(0x18))
        XCTAssertEqual(stub.registers[0x00] & 0x08, 0, "DIAG_RESULT: calibration succeeded")
    }
}
