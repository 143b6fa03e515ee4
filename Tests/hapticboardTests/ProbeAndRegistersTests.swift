import Foundation
import ActuatorHAL
import HapticRuntime
import HardwareMocks
import XCTest
@testable import hapticboard

final class ProbeAndRegistersTests: XCTestCase {
    /// The package root, found from this file's path so the tests run from any directory.
    private let boards = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Boards")

    private func json<Report: Encodable>(_ reports: [Report]) throws -> [String: Any] {
        let data = try JSONEncoder().encode(ChipsDocument(board: "sim", chips: reports))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    func testCommandsParseWithTheBoardLeftToTheDefaultChain() throws {
        let probe = try XCTUnwrap(HapticBoardCommand.parseAsRoot(["probe", "--json"]) as? ProbeCommand)
        XCTAssertNil(probe.options.board)
        XCTAssertTrue(probe.options.json)
        let registers = try XCTUnwrap(HapticBoardCommand.parseAsRoot(["registers", "--board", "cm4"]) as? RegistersCommand)
        XCTAssertEqual(registers.options.board, "cm4")
        XCTAssertFalse(registers.options.json)
    }

    /// STATUS clears OVER_TEMP on read: probe reads it once and reports what that read saw.
    func testProbeReadsStatusOnceAndReportsOverTemperature() throws {
        let board = try CommandBoard.open("sim")
        let simulation = try XCTUnwrap(board.simulatedChip(of: board.opened.actuators[0]))
        try simulation.enableLine.set(.high)
        simulation.clock.advance(by: .milliseconds(1))
        simulation.chip.injectOverTemperature()
        simulation.bus.clearLog()
        let report = try ProbeReport.probe(chip(of: board))
        XCTAssertTrue(report.status.overTemperature, "\(report)")
        XCTAssertEqual(report.variant, "DRV2605L")
        let statusReads = simulation.bus.log.filter { $0.operations == [.write([0x00]), .read(count: 1)] }
        XCTAssertEqual(statusReads.count, 1)
    }

    func testProbeJSONShowsTheSimulatedDRV2605L() throws {
        let board = try CommandBoard.open("sim")
        XCTAssertEqual(board.opened.actuators.count, 1)
        let report = try ProbeReport.probe(chip(of: board))
        let document = try json([report])
        let chip = try XCTUnwrap((document["chips"] as? [[String: Any]])?.first)
        XCTAssertEqual(chip["deviceID"] as? Int, 7)
        XCTAssertEqual(chip["variant"] as? String, "DRV2605L")
        XCTAssertEqual(chip["address"] as? String, "0x5A")
        XCTAssertEqual(chip["bus"] as? String, "sim")
        XCTAssertEqual((chip["status"] as? [String: Any])?["value"] as? String, "0xE0")
        XCTAssertTrue(report.text.contains("DRV2605L (DEVICE_ID 7) at 0x5A on sim"))
    }

    func testRegistersJSONIsANamedDecodedDump() throws {
        let board = try CommandBoard.open("sim")
        let report = try RegisterReport.read(chip(of: board))
        XCTAssertEqual(report.registers.count, 0x23)
        let document = try json([report])
        let chip = try XCTUnwrap((document["chips"] as? [[String: Any]])?.first)
        let registers = try XCTUnwrap(chip["registers"] as? [[String: Any]])
        let status = try XCTUnwrap(registers.first)
        XCTAssertEqual(status["name"] as? String, "STATUS")
        XCTAssertEqual(status["address"] as? String, "0x00")
        let deviceID = (status["fields"] as? [[String: Any]])?.first
        XCTAssertEqual(deviceID?["name"] as? String, "DEVICE_ID")
        XCTAssertEqual(deviceID?["value"] as? Int, 7)
        let control2 = try XCTUnwrap(registers.first { $0["name"] as? String == "CONTROL2" })
        XCTAssertEqual(control2["value"] as? String, "0xF5")
        XCTAssertTrue(report.text.contains("0x1C CONTROL2          0xF5  BIDIR_INPUT=1 BRAKE_STABILIZER=1 SAMPLE_TIME=3"))
    }

    func testTheSimBoardFileOpensASimulatedChip() throws {
        let board = try CommandBoard.open(boards.appendingPathComponent("sim.yml").path)
        XCTAssertEqual(board.name, "sim")
        XCTAssertEqual(board.opened.actuators.map(\.name), ["main"])
        XCTAssertEqual(try ProbeReport.probe(chip(of: board)).deviceID, 7)
    }

    func testALinuxBoardFileOpensItsI2CDevNode() {
        // No /dev/i2c-1 on the build machine: the typed error names the node and errno.
        XCTAssertThrowsError(try CommandBoard.open(boards.appendingPathComponent("raspberry-pi-4-drv2605l.yml").path)) { error in
            guard case .open(let path, let errno)? = error as? I2CError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, "/dev/i2c-1")
            XCTAssertEqual(errno, .noSuchFileOrDirectory)
        }
        XCTAssertThrowsError(try CommandBoard.open(boards.appendingPathComponent("cm4-dual-drv2605l-tca9548a.yml").path)) { error in
            XCTAssertTrue("\(error)".contains("/dev/i2c-1"), "\(error)")
        }
    }

    func testABadEnableLineIsReportedAtItsKey() throws {
        let text = try String(contentsOf: boards.appendingPathComponent("raspberry-pi-4-drv2605l.yml"), encoding: .utf8)
            .replacingOccurrences(of: "enable-gpios: GPIO17", with: "enable-gpios: gpiochip0:x")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("hapticboard-pi-\(UUID().uuidString).yml")
        try text.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        XCTAssertThrowsError(try CommandBoard.open(file.path)) { error in
            XCTAssertTrue("\(error)".hasPrefix("\(file.path):17:5: actuators[0].enable-gpios: "), "\(error)")
        }
    }

    func testUnknownBoardsAndBadFilesAreClearErrors() throws {
        XCTAssertThrowsError(try CommandBoard.open("no-such-board")) { error in
            XCTAssertTrue("\(error)".contains("Boards/no-such-board.yml"), "\(error)")
        }
        let bad = FileManager.default.temporaryDirectory.appendingPathComponent("hapticboard-bad-\(UUID().uuidString).yml")
        try "board: x\nbuses: []\nactuators: 3\n".write(to: bad, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: bad) }
        XCTAssertThrowsError(try CommandBoard.open(bad.path)) { error in
            guard case .invalid(let problems)? = error as? BoardError else { return XCTFail("\(error)") }
            XCTAssertEqual(problems.first?.line, 3)
        }
    }

    /// The board's first actuator, a chip.
    private func chip(of board: CommandBoard) throws -> DRV2605Actuator {
        try XCTUnwrap(board.opened.actuators.first?.drv2605)
    }
}
