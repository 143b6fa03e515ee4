import Foundation
import XCTest

/// `hapticboard boards list` and `boards check` on the shipped and on broken board files.
final class BoardsCommandTests: XCTestCase {
    private func shippedBoards() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: BuiltCommand.path("Boards"))
            .filter { $0.hasSuffix(".yml") }
            .sorted()
    }

    func testEveryShippedBoardPassesCheck() throws {
        let boards = try shippedBoards()
        XCTAssertGreaterThanOrEqual(boards.count, 5)
        for board in boards {
            let run = try BuiltCommand().run(["boards", "check", "Boards/\(board)"])
            XCTAssertEqual(run.status, 0, "\(board): \(run.errorOutput)")
            XCTAssertTrue(run.output.hasPrefix("Boards/\(board): ok\n"), run.output)
        }
    }

    /// A closed-loop ERM without `library-sel` gets a closed-loop library (never A, which is for
    /// open loop only), and `boards check` says which and why.
    func testCheckSaysWhichLibraryADefaultedActuatorPlays() throws {
        let text = try String(contentsOfFile: BuiltCommand.path("Boards/raspberry-pi-zero-2w-drv2605l.yml"), encoding: .utf8)
        for (loop, library) in [("closed", "B"), ("open", "A")] {
            let edited = text.replacingOccurrences(of: "    library-sel: 2", with: "   ").replacingOccurrences(of: "loop: closed", with: "loop: \(loop)")
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("board-\(UUID().uuidString).yml").path
            try edited.write(toFile: file, atomically: true, encoding: .utf8)
            let run = try BuiltCommand().run(["boards", "check", file])
            XCTAssertEqual(run.status, 0, run.errorOutput)
            XCTAssertTrue(run.output.contains("main: DRV2605L, ROM library \(library) (the datasheet's choice for a 3.0 V \(loop)-loop ERM)"), run.output)
            let json = try BuiltCommand().run(["boards", "check", "--json", file])
            let actuator = try XCTUnwrap(((try json.json()["files"] as? [[String: Any]])?.first?["actuators"] as? [[String: Any]])?.first)
            XCTAssertEqual(actuator["library"] as? String, library)
            XCTAssertEqual(actuator["librarySource"] as? String, "default")
        }
    }

    /// Combinations the datasheet forbids fail with file:line:column, the key and the rule.
    func testDatasheetForbiddenCombinationsFailCheck() throws {
        let text = try String(contentsOfFile: BuiltCommand.path("Boards/raspberry-pi-zero-2w-drv2605l.yml"), encoding: .utf8)
        let cases: [(from: String, to: String, key: String, rule: String)] = [
            ("library-sel: 2", "library-sel: 1", "actuators[0].library-sel", "open loop only"),
            ("vib-overdrive-mv: 3600", "vib-overdrive-mv: 2500", "actuators[0].vib-overdrive-mv", "must not be below the rated voltage"),
            ("loop: closed", "loop: open\n    rtp-input: unidirectional", "actuators[0].rtp-input", "closed loop only"),
            ("loop: closed", "loop: closed\n    rtp-format: twos-complement", "actuators[0].rtp-format", "expected signed or unsigned"),
        ]
        for testCase in cases {
            let edited = text.replacingOccurrences(of: testCase.from, with: testCase.to)
            XCTAssertNotEqual(edited, text)
            let line = (edited.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(testCase.key.split(separator: ".").last! + ":") } ?? -1) + 1
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("board-\(UUID().uuidString).yml").path
            try edited.write(toFile: file, atomically: true, encoding: .utf8)
            let run = try BuiltCommand().run(["boards", "check", file])
            XCTAssertEqual(run.status, 1, testCase.key)
            XCTAssertTrue(run.errorOutput.contains("\(file):\(line):"), "\(testCase.key): \(run.errorOutput)")
            XCTAssertTrue(run.errorOutput.contains(testCase.key), run.errorOutput)
            XCTAssertTrue(run.errorOutput.contains(testCase.rule), run.errorOutput)
        }
    }

    func testListShowsSimAndEveryShippedBoard() throws {
        let run = try BuiltCommand().run(["boards", "list", "--json"])
        XCTAssertEqual(run.status, 0, run.errorOutput)
        let entries = try XCTUnwrap(try run.json()["boards"] as? [[String: Any]])
        XCTAssertEqual(entries.first?["name"] as? String, "sim")
        XCTAssertEqual(entries.first?["source"] as? String, "built in")
        let names = Set(entries.compactMap { $0["name"] as? String })
        for board in try shippedBoards() {
            XCTAssertTrue(names.contains(String(board.dropLast(4))), board)
        }
        for entry in entries {
            XCTAssertNil(entry["problem"], "\(entry)")
            XCTAssertNotNil(entry["description"] as? String, "\(entry)")
        }
    }

    func testBrokenBoardFilesFailWithFileLineAndKey() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("boards-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let original = try String(contentsOfFile: BuiltCommand.path("Boards/raspberry-pi-4-drv2605l.yml"), encoding: .utf8)
        let lineOf = { (key: String) -> Int in
            (original.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(key + ":") } ?? -1) + 1
        }
        let cases: [(edit: (String, String), key: String, line: Int)] = [
            (("vib-rated-mv: 2000", "vib-rated-mv: lots"), "actuators[0].vib-rated-mv", lineOf("vib-rated-mv")),
            (("library-sel: 6", "library-sel: 6\n    vib-rated-volts: 2"), "actuators[0].vib-rated-volts", lineOf("library-sel") + 1),
            (("bus: i2c1", "bus: i2c9"), "actuators[0].bus", lineOf("    bus")),
        ]
        for (index, testCase) in cases.enumerated() {
            let text = original.replacingOccurrences(of: testCase.edit.0, with: testCase.edit.1)
            XCTAssertNotEqual(text, original)
            let file = folder.appendingPathComponent("broken-\(index).yml").path
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            let run = try BuiltCommand().run(["boards", "check", file])
            XCTAssertEqual(run.status, 1, file)
            XCTAssertTrue(run.errorOutput.contains("\(file):\(testCase.line):"), "\(testCase.key): \(run.errorOutput)")
            XCTAssertTrue(run.errorOutput.contains(testCase.key), "\(testCase.key): \(run.errorOutput)")
        }
    }

    func testCheckJSONLocatesEachProblem() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("board-\(UUID().uuidString).yml").path
        let text = try String(contentsOfFile: BuiltCommand.path("Boards/sim.yml"), encoding: .utf8)
            .replacingOccurrences(of: "loop: closed", with: "loop: sideways")
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let run = try BuiltCommand().run(["boards", "check", "--json", file, "Boards/sim.yml"])
        XCTAssertEqual(run.status, 1)
        let files = try XCTUnwrap(try run.json()["files"] as? [[String: Any]])
        let problem = try XCTUnwrap((files.first?["problems"] as? [[String: Any]])?.first)
        XCTAssertEqual(problem["key"] as? String, "actuators[0].loop")
        XCTAssertEqual(problem["line"] as? Int, (text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("loop: sideways") } ?? -1) + 1)
        XCTAssertEqual((files.last?["problems"] as? [[String: Any]])?.count, 0)
    }

    func testPlayOnABrokenBoardNamesTheProblem() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("board-\(UUID().uuidString).yml").path
        try "board: x\nbuses: []\nactuators: 3\n".write(toFile: file, atomically: true, encoding: .utf8)
        let run = try BuiltCommand().run(["play", "--board", file, "--effect", "1"])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.errorOutput.hasPrefix("hapticboard: error: \(file):3:"), run.errorOutput)
    }

    /// `boards show` derives each register from the ratings with the datasheet's formulas: the
    /// sim board's 2.0 V rms 175 Hz LRA, and TI's example of a 200 Hz LRA's 2.5 ms DRIVE_TIME.
    func testShowDerivesRegistersFromTheRatings() throws {
        let sim = try BuiltCommand().run(["boards", "show", "sim", "--json"]).json()
        let main = try XCTUnwrap((sim["actuators"] as? [[String: Any]])?.first)
        let registers = try XCTUnwrap(main["registers"] as? [[String: Any]])
        func register(_ name: String, in registers: [[String: Any]]) -> [String: Any]? { registers.first { $0["name"] as? String == name } }
        // 2.0 V × √(1 − (4 × 300 µs + 300 µs) × 175 Hz) / 20.58 mV = 82.6 → 83; 2.8 V / 21.22 mV = 132.
        XCTAssertEqual(register("RATED_VOLTAGE", in: registers)?["value"] as? Int, 83)
        XCTAssertEqual(register("RATED_VOLTAGE", in: registers)?["meaning"] as? String, "1.99 V rms")
        XCTAssertEqual(register("OD_CLAMP", in: registers)?["value"] as? Int, 132)
        XCTAssertEqual((main["budgets"] as? [[String: Any]])?.map { $0["transition"] as? String }, ["wake", "prepare", "standby", "sleep"])

        let text = try String(contentsOfFile: BuiltCommand.path("Boards/sim.yml"), encoding: .utf8)
            .replacingOccurrences(of: "resonant-frequency-hz: 175", with: "resonant-frequency-hz: 200")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("board-\(UUID().uuidString).yml").path
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("state-\(UUID().uuidString)").path
        let run = try BuiltCommand().run(["boards", "show", file, "--state-dir", state])
        XCTAssertEqual(run.status, 0, run.errorOutput)
        XCTAssertTrue(run.output.contains("CONTROL1.DRIVE_TIME 0x1B =  20 (0x14): 2.5 ms half period"), run.output)
        XCTAssertTrue(run.output.contains("calibration: none stored"), run.output)
    }
}
