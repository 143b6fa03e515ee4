#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CDrivers
import SystemPackage
import XCTest

import ActuatorHAL
@testable import ActuatorHALLinux

/// The Linux drivers against what this machine has without hardware: missing devices, the pure
/// rules and mappings, ALSA's "null" device and the system clock.
final class LinuxDriversTests: XCTestCase {
    private let address: I2CAddress = 0x5A

    // MARK: I2C

    func testOpeningAMissingBusThrowsOpenWithENOENT() {
        XCTAssertThrowsError(try LinuxI2CBus(busNumber: 99)) { error in
            XCTAssertEqual(error as? I2CError, .open(path: "/dev/i2c-99", errno: .noSuchFileOrDirectory))
        }
    }

    /// /dev/null opens read-write but answers no i2c-dev ioctl, so every call reaches the kernel and
    /// comes back ENOTTY: the marshalling and error paths run without an adapter.
    func testANodeThatIsNotAnAdapterReportsTypedErrors() throws {
        let bus = try LinuxI2CBus(path: "/dev/null", speedHz: 400_000)
        XCTAssertEqual(bus.name, "/dev/null")
        XCTAssertEqual(bus.speedHz, 400_000)
        XCTAssertThrowsError(try bus.writeRead(address: address, [0x00], readCount: 1)) { error in
            XCTAssertEqual(error as? I2CError, .transfer(bus: "/dev/null", address: address, errno: .inappropriateIOCTLForDevice))
        }
        XCTAssertThrowsError(try bus.readByteData(address: address, register: 0x00)) { error in
            XCTAssertEqual(error as? I2CError, .transfer(bus: "/dev/null", address: address, errno: .inappropriateIOCTLForDevice))
        }
        XCTAssertThrowsError(try bus.writeByteData(address: address, register: 0x01, value: 0x00)) { error in
            XCTAssertEqual(error as? I2CError, .transfer(bus: "/dev/null", address: address, errno: .inappropriateIOCTLForDevice))
        }
        XCTAssertThrowsError(try bus.functionality()) { error in
            XCTAssertEqual(error as? I2CError, .open(path: "/dev/null", errno: .inappropriateIOCTLForDevice))
        }
    }

    /// The SMBus path selects an address (I2C_SLAVE) only when it is not the one it selected last.
    /// On /dev/null every ioctl fails: a failed selection forgets the address (`selected` back to 0),
    /// while a transfer to the address already selected makes no selection, so only the transfer
    /// fails and the address stays known.
    func testTheSMBusPathSelectsAnAddressOnlyWhenItChanges() throws {
        let descriptor = open("/dev/null", O_RDWR)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        defer { close(descriptor) }
        var selected: CInt = 0
        XCTAssertEqual(hb_i2c_smbus_write_byte_data(descriptor, 0x5A, 0x01, 0x00, &selected), ENOTTY)
        XCTAssertEqual(selected, 0, "a failed selection leaves no address known")
        selected = 0x5A + 1
        XCTAssertEqual(hb_i2c_smbus_write_byte_data(descriptor, 0x5A, 0x01, 0x00, &selected), ENOTTY)
        XCTAssertEqual(selected, 0x5A + 1, "the same address: no selection, only the transfer failed")
        var value: UInt8 = 0
        XCTAssertEqual(hb_i2c_smbus_read_byte_data(descriptor, 0x5A, 0x00, &value, &selected), ENOTTY)
        XCTAssertEqual(selected, 0x5A + 1)
        XCTAssertEqual(hb_i2c_smbus_write_byte_data(descriptor, 0x70, 0x00, 0x01, &selected), ENOTTY)
        XCTAssertEqual(selected, 0, "another address is selected, and that failed")
    }

    func testTheBusRefusesABadShapeBeforeTheKernelSeesIt() throws {
        let bus = try LinuxI2CBus(path: "/dev/null")
        XCTAssertThrowsError(try bus.transaction(address: address, [.read(count: 1), .write([0x00])])) { error in
            guard case .unsupportedTransaction(let name, _) = error as? I2CError else {
                return XCTFail("expected unsupportedTransaction, got \(error)")
            }
            XCTAssertEqual(name, "/dev/null")
        }
    }

    func testRuleAcceptsAWriteAWriteThenReadAndALoneRead() {
        XCTAssertNoThrow(try BCM2835TransferRule.check([.write([0x01, 0x00])], bus: "bus"))
        XCTAssertNoThrow(try BCM2835TransferRule.check([.write([0x00]), .read(count: 1)], bus: "bus"))
        XCTAssertNoThrow(try BCM2835TransferRule.check([.write([0x01]), .write([0x02]), .read(count: 4)], bus: "bus"))
        XCTAssertNoThrow(try BCM2835TransferRule.check([.read(count: 2)], bus: "bus"))
    }

    func testRuleRefusesTwoReads() {
        assertRefused([.write([0x00]), .read(count: 1), .read(count: 1)], mentioning: "at most one read")
        assertRefused([.read(count: 1), .read(count: 1)], mentioning: "at most one read")
    }

    func testRuleRefusesAReadBeforeAWrite() {
        assertRefused([.read(count: 1), .write([0x00])], mentioning: "must be the last message")
    }

    func testRuleRefusesEmptyOversizedAndNegativeTransactions() {
        assertRefused([], mentioning: "at least one message")
        assertRefused(Array(repeating: .write([0x00]), count: 43), mentioning: "limit of 42")
        assertRefused([.write(Array(repeating: 0, count: 65_536))], mentioning: "at most 65535")
        assertRefused([.read(count: -1)], mentioning: "negative")
    }

    func testErrnoMapsToTypedTransferErrors() {
        XCTAssertEqual(I2CError.transferFailure(.noSuchAddressOrDevice, bus: "b", address: address), .noAcknowledge(bus: "b", address: address))
        XCTAssertEqual(I2CError.transferFailure(Errno(rawValue: EREMOTEIO), bus: "b", address: address), .noAcknowledge(bus: "b", address: address))
        XCTAssertEqual(I2CError.transferFailure(.timedOut, bus: "b", address: address), .timeout(bus: "b", address: address))
        XCTAssertEqual(I2CError.transferFailure(.ioError, bus: "b", address: address), .transfer(bus: "b", address: address, errno: .ioError))
        XCTAssertEqual(
            I2CError.transferFailure(.resourceTemporarilyUnavailable, bus: "b", address: address),
            .transfer(bus: "b", address: address, errno: .resourceTemporarilyUnavailable)
        )
    }

    private func assertRefused(_ operations: [I2COperation], mentioning text: String, line: UInt = #line) {
        XCTAssertThrowsError(try BCM2835TransferRule.check(operations, bus: "/dev/i2c-1"), line: line) { error in
            guard case .unsupportedTransaction(let bus, let reason) = error as? I2CError else {
                return XCTFail("expected unsupportedTransaction, got \(error)", line: line)
            }
            XCTAssertEqual(bus, "/dev/i2c-1", line: line)
            XCTAssertTrue(reason.contains(text), "reason \"\(reason)\" lacks \"\(text)\"", line: line)
        }
    }

    // MARK: GPIO line specifiers

    func testSpecifierParsesNamesChipNamesAndChipPaths() throws {
        XCTAssertEqual(try GPIOLineSpecifier(parsing: "GPIO17"), .named("GPIO17"))
        XCTAssertEqual(try GPIOLineSpecifier(parsing: "P8_03 [mmc1_dat6]"), .named("P8_03 [mmc1_dat6]"))

        let chipName = try GPIOLineSpecifier(parsing: "gpiochip4:17")
        XCTAssertEqual(chipName, .chipOffset(chip: "gpiochip4", offset: 17))
        XCTAssertEqual(chipName.chipPath, "/dev/gpiochip4")
        XCTAssertEqual(chipName.description, "gpiochip4:17")

        let chipPath = try GPIOLineSpecifier(parsing: "/dev/gpiochip0:5")
        XCTAssertEqual(chipPath, .chipOffset(chip: "/dev/gpiochip0", offset: 5))
        XCTAssertEqual(chipPath.chipPath, "/dev/gpiochip0")
        XCTAssertNil(GPIOLineSpecifier.named("GPIO17").chipPath)
    }

    func testSpecifierRejectsBadText() {
        assertSpecifierError("", .empty)
        assertSpecifierError(" GPIO17", .surroundingWhitespace(" GPIO17"))
        assertSpecifierError(":5", .missingChip(":5"))
        assertSpecifierError("gpiochip0:", .badOffset("gpiochip0:", offset: ""))
        assertSpecifierError("gpiochip0:x", .badOffset("gpiochip0:x", offset: "x"))
        assertSpecifierError("gpiochip0:-1", .badOffset("gpiochip0:-1", offset: "-1"))
        assertSpecifierError("gpiochip0:+1", .badOffset("gpiochip0:+1", offset: "+1"))
        assertSpecifierError("gpiochip0:99999999999", .badOffset("gpiochip0:99999999999", offset: "99999999999"))
        assertSpecifierError("dev/gpiochip0:1", .badChip("dev/gpiochip0:1", chip: "dev/gpiochip0"))
        XCTAssertTrue(GPIOLineSpecifierError.badOffset("gpiochip0:x", offset: "x").description.contains("gpiochip0:x"))
    }

    private func assertSpecifierError(_ text: String, _ expected: GPIOLineSpecifierError, line: UInt = #line) {
        XCTAssertThrowsError(try GPIOLineSpecifier(parsing: text), line: line) { error in
            XCTAssertEqual(error as? GPIOLineSpecifierError, expected, line: line)
        }
    }

    // MARK: GPIO lines

    func testRequestingALineOnAMissingChipThrowsLineNotFound() {
        let line = GPIOLineSpecifier.chipOffset(chip: "gpiochip987", offset: 3)
        XCTAssertThrowsError(try LinuxGPIOOutput(line, initialLevel: .low)) { error in
            XCTAssertEqual(error as? GPIOError, .lineNotFound("gpiochip987:3"))
        }
        XCTAssertThrowsError(try LinuxGPIOInput(line)) { error in
            XCTAssertEqual(error as? GPIOError, .lineNotFound("gpiochip987:3"))
        }
    }

    func testRequestingAnUnknownLineNameThrowsLineNotFound() {
        XCTAssertThrowsError(try LinuxGPIOOutput(.named("HAPTICBOARD_NO_SUCH_LINE"), initialLevel: .high)) { error in
            XCTAssertEqual(error as? GPIOError, .lineNotFound("HAPTICBOARD_NO_SUCH_LINE"))
        }
    }

    func testRequestingAChipThatIsNotAGPIOChipThrowsChipOpen() {
        XCTAssertThrowsError(try LinuxGPIOOutput(.chipOffset(chip: "/dev/null", offset: 0), initialLevel: .low)) { error in
            guard case .chipOpen(let path, _) = error as? GPIOError else {
                return XCTFail("expected chipOpen, got \(error)")
            }
            XCTAssertEqual(path, "/dev/null")
        }
    }

    func testRequestFailuresMapByStage() {
        let line = GPIOLineSpecifier.named("GPIO17")
        XCTAssertEqual(GPIOLineRequest.requestFailure(.resourceBusy, stage: HB_GPIO_STAGE_REQUEST, line: line), .lineBusy("GPIO17"))
        XCTAssertEqual(
            GPIOLineRequest.requestFailure(.permissionDenied, stage: HB_GPIO_STAGE_CHIP_OPEN, line: line),
            .chipOpen(path: "/dev/gpiochip*", errno: .permissionDenied)
        )
        XCTAssertEqual(
            GPIOLineRequest.requestFailure(.invalidArgument, stage: HB_GPIO_STAGE_REQUEST, line: line),
            .io(line: "GPIO17", operation: "request", errno: .invalidArgument)
        )
    }

    // MARK: ALSA

    func testNullDevicePlaysPeriodsAndDrains() throws {
        let sink = try ALSAPCMSink(device: "null", format: PCMFormat(sampleRate: 48_000, channels: 2, periodFrames: 256))
        XCTAssertEqual(sink.name, "null")
        XCTAssertEqual(sink.format.sampleRate, 48_000)
        XCTAssertEqual(sink.format.channels, 2)
        XCTAssertGreaterThan(sink.format.periodFrames, 0)

        let period = (0..<sink.format.periodFrames).flatMap { frame -> [Int16] in
            let sample = Int16(sin(Double(frame) * 2 * .pi * 175 / 48_000) * 8_000)
            return [sample, sample]
        }
        for _ in 0..<4 {
            XCTAssertEqual(try sink.write(period), sink.format.periodFrames)
        }
        XCTAssertGreaterThanOrEqual(try sink.queuedFrames(), 0)
        try sink.drain()
        XCTAssertEqual(try sink.write(period), sink.format.periodFrames, "a drained sink accepts new writes")
        try sink.stop()
    }

    func testWritingAPartialFrameIsRefused() throws {
        let sink = try ALSAPCMSink(device: "null", format: PCMFormat(sampleRate: 48_000, channels: 2, periodFrames: 256))
        XCTAssertThrowsError(try sink.write([1, 2, 3])) { error in
            XCTAssertEqual(error as? PCMError, .io(device: "null", errno: .invalidArgument))
        }
    }

    func testOpeningAMissingPCMDeviceThrowsOpen() {
        let format = PCMFormat(sampleRate: 48_000, channels: 1, periodFrames: 128)
        XCTAssertThrowsError(try ALSAPCMSink(device: "hapticboard_no_such_device", format: format)) { error in
            guard case .open(let device, _, let reason) = error as? PCMError else {
                return XCTFail("expected open, got \(error)")
            }
            XCTAssertEqual(device, "hapticboard_no_such_device")
            // alsa-lib's own reason, which errno (ENOENT) alone does not give.
            XCTAssertEqual(reason, "Unknown PCM hapticboard_no_such_device")
            XCTAssertTrue("\(error)".hasSuffix("(ALSA: Unknown PCM hapticboard_no_such_device)"), "\(error)")
        }
    }

    // MARK: Clock

    func testSystemClockNeverGoesBackwards() {
        let clock = SystemMonotonicClock()
        var previous = clock.now
        XCTAssertGreaterThan(previous.nanoseconds, 0)
        for _ in 0..<1_000 {
            let current = clock.now
            XCTAssertGreaterThanOrEqual(current, previous)
            previous = current
        }
    }

    func testSleepingUntilAPastDeadlineReturnsAtOnce() throws {
        let clock = SystemMonotonicClock()
        let start = clock.now
        try clock.sleep(until: start - .seconds(5))
        try clock.sleep(until: .zero)
        try clock.sleep(until: MonotonicInstant(nanoseconds: -1))
        XCTAssertLessThan(clock.now - start, .seconds(1))
    }

    func testSleepingUntilANearDeadlineWakesAtOrAfterIt() throws {
        let clock = SystemMonotonicClock()
        let deadline = clock.now + .milliseconds(1)
        try clock.sleep(until: deadline)
        XCTAssertGreaterThanOrEqual(clock.now, deadline)
    }
}
