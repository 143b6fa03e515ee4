import BoardFiles
import Foundation
import HardwareMocks
import XCTest
import Yams
@testable import HapticRuntime

/// Boards described in JSON (`Board(json:source:)`), the way a firmware without the YAML reader
/// carries its board: the same description and the same located problems as a board file.
final class BoardJSONTests: XCTestCase {
    private let boards = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Boards")

    /// `yaml` as JSON text, by way of Yams' values (hex integers become numbers).
    private func json(fromYAML yaml: String) throws -> String {
        let value = try XCTUnwrap(try Yams.load(yaml: yaml))
        return String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.prettyPrinted, .sortedKeys]), as: UTF8.self)
    }

    func testEveryShippedBoardInJSONIsTheBoardItsFileDescribes() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: boards.path).filter { $0.hasSuffix(".yml") }
        XCTAssertGreaterThanOrEqual(files.count, 5)
        for name in files {
            let path = boards.appendingPathComponent(name).path
            let fromYAML = try BoardFile.load(path: path)
            let fromJSON = try BoardFile.json(try json(fromYAML: String(contentsOfFile: path, encoding: .utf8)), path: path)
            XCTAssertEqual(fromJSON.description, fromYAML.description, name)
            XCTAssertEqual(fromJSON.problems(), [], name)
        }
    }

    private let board = """
        {
          "board": "panel",
          "buses": [{ "name": "i2c1", "device": "/dev/i2c-1", "clock-frequency": 400000 }],
          "actuators": [{
            "name": "main", "compatible": "ti,drv2605l", "bus": "i2c1", "enable-gpios": "GPIO17",
            "actuator-mode": "LRA", "vib-rated-mv": 2000, "vib-overdrive-mv": 2800,
            "resonant-frequency-hz": 175, "library-sel": 6,
          }],
        }
        """

    /// Every problem of `text`, as `boards check` prints them.
    private func problems(_ text: String) -> [String] {
        do {
            _ = try Board(json: text, source: "panel.json")
            return []
        } catch .invalid(let problems) {
            return problems.map(\.description)
        } catch {
            return [error.description]
        }
    }

    func testABoardInJSONOpensOnItsHardware() throws {
        let opened = try Board(json: board.replacingOccurrences(of: "/dev/i2c-1", with: "sim"), source: "panel.json").open(on: SimulatedBoardHardware())
        defer { opened.close() }
        XCTAssertEqual(opened.actuators.map(\.name), ["main"])
        XCTAssertEqual(problems(board), [], "trailing commas are accepted, as in AHAP")
    }

    func testProblemsAreLocatedAtTheirKeyByLineAndColumn() {
        XCTAssertEqual(problems(board.replacingOccurrences(of: "\"vib-rated-mv\": 2000", with: "\"vib-rated-mv\": 0")), [
            "panel.json:6:29: actuators[0].vib-rated-mv: 0 mV is outside 1...5400 mV",
        ])
        XCTAssertEqual(problems(board.replacingOccurrences(of: "\"library-sel\"", with: "\"library-set\"")), [
            "panel.json:7:35: actuators[0].library-set: unknown key 'library-set'; did you mean 'library-sel'?",
        ])
        XCTAssertEqual(problems(board.replacingOccurrences(of: "\"clock-frequency\": 400000", with: "\"clock-frequency\": \"fast\"")), [
            "panel.json:3:55: buses[0].clock-frequency: expected an integer",
        ])
    }

    func testAStringWithColonsWhereANumberBelongsIsAWrongType() {
        // Not YAML 1.1's base-60 number, which a board file refuses with its own reason: JSON
        // keeps numbers apart from text.
        XCTAssertEqual(problems(board.replacingOccurrences(of: "\"vib-rated-mv\": 2000", with: "\"vib-rated-mv\": \"2:00\"")), [
            "panel.json:6:29: actuators[0].vib-rated-mv: expected an integer",
        ])
    }

    func testAKeyGivenTwiceIsAProblem() {
        // Which value JSONDecoder keeps is not documented (with JSON5 on, the first was seen kept
        // where strict JSON kept the last): the board is refused, even for the same value twice.
        XCTAssertEqual(problems(board.replacingOccurrences(of: "\"library-sel\": 6,", with: "\"library-sel\": 6, \"vib-rated-mv\": 2000,")), [
            "panel.json:7:53: actuators[0].vib-rated-mv: given more than once (first at line 6, column 29): give each key once, so that no reader has to guess which value counts",
        ])
    }

    func testTextThatIsNotJSONIsLocated() {
        XCTAssertEqual(problems("{\n  \"board\": \"panel\",\n  \"buses\": [}\n}"), ["panel.json:3:13: not valid JSON: expected a value, found '}'"])
        XCTAssertEqual(problems("board: panel"), ["panel.json:1:1: not valid JSON: expected a value, found 'b'"])
    }
}
