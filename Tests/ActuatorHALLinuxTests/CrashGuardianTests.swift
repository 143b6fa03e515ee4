import ActuatorHAL
@testable import ActuatorHALLinux
import CDrivers
import Foundation
import SystemPackage
import XCTest

/// Real guardians, forked from the test process, that record what they do instead of doing it: two
/// chips (one behind a multiplexer on an adapter with plain I2C, one on an SMBus-only adapter) and
/// two enable lines, one with this process's request of it and one without, on descriptors the test
/// opened. Waits are on the guardian's own output, bounded.
final class CrashGuardianTests: XCTestCase {
    private var busWithMux: FileHandle!
    private var smbusBus: FileHandle!
    private var lineRequest: FileHandle!
    private var record: Pipe!

    override func setUpWithError() throws {
        busWithMux = try XCTUnwrap(FileHandle(forWritingAtPath: "/dev/null"))
        smbusBus = try XCTUnwrap(FileHandle(forWritingAtPath: "/dev/null"))
        lineRequest = try XCTUnwrap(FileHandle(forWritingAtPath: "/dev/null"))
        record = Pipe()
    }

    private func writes(_ values: [(UInt8, UInt8)]) -> [StopOperation] {
        values.map { .writeRegister(chip: 0x5A, register: $0.0, value: $0.1) }
    }

    private var chips: [ChipStop] {
        get throws {
            [
                try ChipStop(
                    busDescriptor: busWithMux.fileDescriptor, busName: "/dev/i2c-1", chipAddress: 0x5A, smbusOnly: false,
                    operations: [.selectChannel(mux: 0x70, mask: 0x04)] + writes([(0x0C, 0), (0x02, 0), (0x01, 0x40)])
                ),
                try ChipStop(
                    busDescriptor: smbusBus.fileDescriptor, busName: "/dev/i2c-0", chipAddress: 0x5A, smbusOnly: true,
                    operations: writes([(0x0C, 0), (0x02, 0x80), (0x01, 0x40)])
                ),
            ]
        }
    }

    /// Stand-ins for two GPIO chips, which the guardian opens before it forks as it would
    /// /dev/gpiochipN; line 17 is held by a stand-in for this process's request of it.
    private var lines: [GPIOLineLocation] {
        [
            GPIOLineLocation(chipPath: "/dev/null", offset: 17, heldRequest: .init(descriptor: lineRequest.fileDescriptor, uapiVersion: 2)),
            GPIOLineLocation(chipPath: "/dev/null", offset: 3),
        ]
    }

    private func startRecordingGuardian() throws -> CrashGuardian {
        try CrashGuardian.start(stopping: chips, enableLines: lines, recordingTo: record.fileHandleForWriting.fileDescriptor)
    }

    /// What the guardian recorded, once it has exited (the test's copy of the write end is closed
    /// here, so the read ends there).
    private func recorded() throws -> [RecordedStopAction] {
        try record.fileHandleForWriting.close()
        let bytes = [UInt8](record.fileHandleForReading.readDataToEndOfFile())
        return try XCTUnwrap(RecordedStopAction.decode(bytes), "not whole records: \(bytes.count) bytes")
    }

    func testDisarmedItExitsWithoutTouchingAnything() throws {
        let guardian = try startRecordingGuardian()
        try guardian.disarm()
        XCTAssertEqual(try recorded(), [])
    }

    func testWhenItsParentIsGoneItStopsEveryChipInOrderThenDrivesTheLinesLow() throws {
        let guardian = try startRecordingGuardian()
        XCTAssertEqual(try guardian.end(disarming: false, timeout: .seconds(5)), Int32(HB_GUARDIAN_EXIT_STOPPED))
        let actions = try recorded()
        XCTAssertEqual(Array(actions.prefix(7)), try stopSteps())
        XCTAssertEqual(actions.count, 9, "\(actions)")
        XCTAssertEqual(actions.dropFirst(7).first, .heldLineLow(request: lineRequest.fileDescriptor, offset: 17), "through this process's request")
        guard case .lineLow(let chip, 3)? = actions.last, chip >= 0 else { return XCTFail("line 3 requested by the guardian: \(actions)") }
    }

    /// The early warning: the sentinel thread ends holding its lock, as it does when this process
    /// is killed, and the guardian stops the chips and drives the line it holds a request of low
    /// then — without waiting for the end of file that comes only after the kernel has torn the
    /// process down, with its requests — and once more at the end, with the other line.
    func testWhenItsParentStartsToDieItStopsTheChipsAndDrivesTheHeldLineLowAtOnceAndAgainWhenItIsGone() throws {
        let guardian = try startRecordingGuardian()
        guardian.abandonSentinel()
        let early = try records(count: 8, within: .seconds(10))
        XCTAssertEqual(early, try stopSteps() + [.heldLineLow(request: lineRequest.fileDescriptor, offset: 17)])
        XCTAssertEqual(try guardian.end(disarming: false, timeout: .seconds(5)), Int32(HB_GUARDIAN_EXIT_STOPPED))
        let final = try recorded()
        XCTAssertEqual(Array(final.prefix(8)), try stopSteps() + [.heldLineLow(request: lineRequest.fileDescriptor, offset: 17)], "the same again once the process is gone")
        XCTAssertEqual(final.count, 9, "then the line without a request: \(final)")
    }

    /// Exactly `count` records, read as the guardian writes them; fails instead of waiting past
    /// `timeout` for a guardian that never writes them.
    private func records(count: Int, within timeout: Duration) throws -> [RecordedStopAction] {
        let size = MemoryLayout<hb_stop_step>.size
        let descriptor = record.fileHandleForReading.fileDescriptor
        var bytes: [UInt8] = []
        while bytes.count < count * size {
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, CInt(timeout.components.seconds * 1000)) == 1 else {
                XCTFail("the guardian wrote \(bytes.count / size) of \(count) records")
                return []
            }
            var chunk = [UInt8](repeating: 0, count: count * size - bytes.count)
            let got = read(descriptor, &chunk, chunk.count)
            guard got > 0 else { XCTFail("the record ended after \(bytes.count) bytes"); return [] }
            bytes += chunk.prefix(got)
        }
        return try XCTUnwrap(RecordedStopAction.decode(bytes))
    }

    /// The two chips' steps, in the order the guardian issues them.
    private func stopSteps() throws -> [RecordedStopAction] {
        let mux = busWithMux.fileDescriptor
        let smbus = smbusBus.fileDescriptor
        return [
            .step(bus: mux, .i2cWrite(address: 0x70, bytes: [0x04])),
            .step(bus: mux, .i2cWrite(address: 0x5A, bytes: [0x0C, 0x00])),
            .step(bus: mux, .i2cWrite(address: 0x5A, bytes: [0x02, 0x00])),
            .step(bus: mux, .i2cWrite(address: 0x5A, bytes: [0x01, 0x40])),
            .step(bus: smbus, .smbusWriteByteData(address: 0x5A, register: 0x0C, value: 0x00)),
            .step(bus: smbus, .smbusWriteByteData(address: 0x5A, register: 0x02, value: 0x80)),
            .step(bus: smbus, .smbusWriteByteData(address: 0x5A, register: 0x01, value: 0x40)),
        ]
    }

    /// A fatal signal is settled when kill() returns: ignored ones are discarded, others have doomed
    /// the process. So a guardian that still disarms cleanly afterwards ignored them.
    func testTheSignalsThatStopACommandDoNotStopIt() throws {
        let guardian = try startRecordingGuardian()
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] {
            XCTAssertEqual(kill(guardian.processID, signal), 0)
        }
        try guardian.disarm()
        XCTAssertEqual(try recorded(), [])
    }

    func testItHasASessionAndProcessGroupOfItsOwn() throws {
        let guardian = try startRecordingGuardian()
        defer { XCTAssertNoThrow(try guardian.disarm()) }
        XCTAssertEqual(getsid(guardian.processID), guardian.processID)
        XCTAssertEqual(getpgid(guardian.processID), guardian.processID)
        XCTAssertNotEqual(getsid(guardian.processID), getsid(0))
    }

    /// Only the channel, the record, the two buses, the two GPIO chips and the enable line's request:
    /// nothing this process had open besides (another GPIO line request among them would stay
    /// requested while it lives).
    func testItKeepsNoOtherDescriptor() throws {
        let bystander = Pipe()
        let bystanderLink = try link(of: bystander.fileHandleForWriting.fileDescriptor, in: "self")
        let guardian = try startRecordingGuardian()
        defer { XCTAssertNoThrow(try guardian.disarm()) }
        let folder = "/proc/\(guardian.processID)/fd"
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: folder).compactMap(CInt.init).sorted()
        XCTAssertEqual(descriptors.count, 7, "\(descriptors)")
        XCTAssertTrue(descriptors.contains(busWithMux.fileDescriptor))
        XCTAssertTrue(descriptors.contains(smbusBus.fileDescriptor))
        XCTAssertTrue(descriptors.contains(lineRequest.fileDescriptor))
        XCTAssertTrue(descriptors.contains(record.fileHandleForWriting.fileDescriptor))
        let links = try descriptors.map { try link(of: $0, in: "\(guardian.processID)") }
        XCTAssertFalse(links.contains(bystanderLink), "\(links)")
        XCTAssertEqual(links.filter { $0 == "/dev/null" }.count, 5, "two buses, two GPIO chips and a line request: \(links)")
        XCTAssertEqual(links.filter { $0.hasPrefix("socket:") }.count, 1, "its end of the channel: \(links)")
    }

    private func link(of descriptor: CInt, in process: String) throws -> String {
        try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(process)/fd/\(descriptor)")
    }

    func testAGuardianKilledBeforeTheDisarmIsReported() throws {
        let guardian = try startRecordingGuardian()
        XCTAssertEqual(kill(guardian.processID, SIGKILL), 0)
        XCTAssertThrowsError(try guardian.disarm()) { error in
            // Whether the disarm byte still found its end open depends on how far its exit got.
            let status: Int32? = switch error as? CrashGuardianError {
            case .notRunning(let status), .unexpectedExit(let status): status
            default: nil
            }
            XCTAssertEqual(status, 128 + SIGKILL, "\(error)")
        }
    }

    func testItIsEndedOnce() throws {
        let guardian = try startRecordingGuardian()
        try guardian.disarm()
        XCTAssertThrowsError(try guardian.disarm()) { XCTAssertEqual($0 as? CrashGuardianError, .alreadyEnded) }
    }

    func testARequestOfAnUnknownGPIOInterfaceFailsTheStart() throws {
        let line = GPIOLineLocation(chipPath: "/dev/null", offset: 0, heldRequest: .init(descriptor: lineRequest.fileDescriptor, uapiVersion: 3))
        XCTAssertThrowsError(try CrashGuardian.start(stopping: chips, enableLines: [line])) { error in
            XCTAssertEqual(error as? CrashGuardianError, .start(.invalidArgument))
        }
    }

    func testAnEnableLineOnAMissingChipFailsTheStart() throws {
        let missing = [GPIOLineLocation(chipPath: "/dev/gpiochip-that-is-not-there", offset: 0)]
        XCTAssertThrowsError(try CrashGuardian.start(stopping: chips, enableLines: missing)) { error in
            XCTAssertEqual(error as? CrashGuardianError, .start(.noSuchFileOrDirectory))
        }
    }
}
