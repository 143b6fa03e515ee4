@testable import BoardFiles
import Foundation
import XCTest
@testable import HapticRuntime

final class BoardFileTests: XCTestCase {
    private let validBoard = """
        board: test
        buses:
          - name: i2c1
            device: /dev/i2c-1
            clock-frequency: 400000
        actuators:
          - name: main
            compatible: ti,drv2605l
            bus: i2c1
            reg: 0x5a
            enable-gpios: GPIO17
            actuator-mode: LRA
            vib-rated-mv: 2000
            vib-overdrive-mv: 2800
            resonant-frequency-hz: 175
            library-sel: 6

        """

    private func problems(in text: String) throws -> [String] {
        let file = try BoardFile.parse(text, path: "test.yml")
        return BoardRules(file: file).problems().map(\.description)
    }

    /// The first problem of `text`, as `boards check` prints it.
    private func loadError(_ text: String) -> String? {
        do {
            _ = try Board(yaml: text, source: "test.yml")
            return nil
        } catch .invalid(let problems) {
            return problems.first?.description
        } catch {
            return error.description
        }
    }

    func testShippedBoardsHaveNoProblems() throws {
        let boards = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Boards")
        let files = try FileManager.default.contentsOfDirectory(atPath: boards.path).filter { $0.hasSuffix(".yml") }
        XCTAssertGreaterThanOrEqual(files.count, 5)
        for name in files {
            let file = try BoardFile.load(path: boards.appendingPathComponent(name).path)
            XCTAssertEqual(BoardRules(file: file).problems().map(\.description), [], name)
        }
    }

    func testAKeyGivenTwiceIsAProblemAndTheValueKeptIsTheOneLocated() throws {
        // Yams keeps the later value: the rule about it points there, not at the first.
        let twice = validBoard.replacingOccurrences(of: "    vib-rated-mv: 2000\n", with: "    vib-rated-mv: 2000\n    vib-rated-mv: 9000\n")
        XCTAssertEqual(try problems(in: twice), [
            "test.yml:14:5: actuators[0].vib-rated-mv: given more than once (first at line 13, column 5): give each key once, so that no reader has to guess which value counts",
            "test.yml:14:5: actuators[0].vib-rated-mv: 9000 mV is outside 1...5400 mV",
            "test.yml:15:5: actuators[0].vib-overdrive-mv: the overdrive clamp (2800 mV) must not be below the rated voltage (9000 mV)",
        ])
        // The same value twice is still refused, at the top level too; the board does not open.
        let same = validBoard.replacingOccurrences(of: "board: test\n", with: "board: test\nboard: test\n")
        XCTAssertEqual(loadError(same), "test.yml:2:1: board: given more than once (first at line 1, column 1): give each key once, so that no reader has to guess which value counts")
    }

    func testABoardFileThatCannotBeReadSaysWhy() {
        XCTAssertEqual(Board.problems(inFileAt: URL(fileURLWithPath: "/dev/null")).map(\.description), ["/dev/null: cannot read the board file: it is a pipe or a device, not a file"])
        XCTAssertEqual(Board.problems(inFileAt: URL(fileURLWithPath: "/no/such/board.yml")).map(\.description), ["/no/such/board.yml: cannot read the board file: No such file or directory"])
    }

    func testValidBoardDecodesDevicetreeKeys() throws {
        let board = try BoardFile.parse(validBoard, path: "test.yml").description
        XCTAssertEqual(board.buses.first?.clockFrequency, 400_000)
        XCTAssertEqual(board.actuators.first?.vibRatedMillivolts, 2000)
        XCTAssertEqual(board.actuators.first?.reg, 0x5A)
        XCTAssertEqual(board.actuators.first?.enableGPIOs, "GPIO17")
        XCTAssertEqual(try problems(in: validBoard), [])
    }

    func testMisspeltKeyIsRefusedAtItsLineAndColumn() {
        let text = validBoard.replacingOccurrences(of: "vib-rated-mv", with: "vib-rate-mv")
        let error = loadError(text)
        XCTAssertEqual(error?.hasPrefix("test.yml:13:5: actuators[0].vib-rate-mv: unknown key 'vib-rate-mv'"), true, error ?? "no error")
    }

    func testWrongTypeNamesKeyPath() {
        let text = validBoard.replacingOccurrences(of: "clock-frequency: 400000", with: "clock-frequency: fast")
        let error = loadError(text)
        XCTAssertEqual(error, "test.yml:5:5: buses[0].clock-frequency: expected an integer")
    }

    func testMissingKeyIsNamed() {
        let text = validBoard.replacingOccurrences(of: "    vib-overdrive-mv: 2800\n", with: "")
        XCTAssertEqual(loadError(text)?.contains("actuators[0]: missing required key 'vib-overdrive-mv'"), true, loadError(text) ?? "no error")
    }

    func testBrokenYAMLGivesPosition() {
        let error = loadError("board: x\nbuses: [\n  - name: a\n")
        XCTAssertEqual(error?.hasPrefix("test.yml:"), true)
        XCTAssertEqual(error?.contains("not valid YAML"), true, error ?? "no error")
    }

    func testRulesReportEachProblemWithLocation() throws {
        let text = validBoard
            .replacingOccurrences(of: "bus: i2c1", with: "bus: i2c9")
            .replacingOccurrences(of: "reg: 0x5a", with: "reg: 0x5b")
            .replacingOccurrences(of: "vib-overdrive-mv: 2800", with: "vib-overdrive-mv: 1500")
            .replacingOccurrences(of: "resonant-frequency-hz: 175", with: "resonant-frequency-hz: 175000")
            .replacingOccurrences(of: "library-sel: 6", with: "library-sel: 1")
        XCTAssertEqual(try problems(in: text), [
            "test.yml:9:5: actuators[0].bus: no bus named 'i2c9' (defined: i2c1)",
            "test.yml:10:5: actuators[0].reg: a DRV260x answers only at 0x5A, not 0x5B; put several behind a TCA9548A",
            "test.yml:14:5: actuators[0].vib-overdrive-mv: the overdrive clamp (1500 mV) must not be below the rated voltage (2000 mV)",
            "test.yml:15:5: actuators[0].resonant-frequency-hz: 175000.0 Hz is outside 45...400 Hz",
            "test.yml:16:5: actuators[0].library-sel: an LRA plays library 6; ERM libraries would overdrive it",
        ])
    }

    func testTwoChipsOnOneSegmentConflict() throws {
        let second = """
              - name: second
                compatible: ti,drv2605l
                bus: i2c1
                actuator-mode: ERM
                vib-rated-mv: 3000
                vib-overdrive-mv: 3300

            """
        let problems = try problems(in: validBoard + second)
        XCTAssertEqual(problems, [
            "test.yml:17:5: actuators[1].reg: 'second' and 'main' both sit on i2c1 at 0x5A; DRV260x chips sharing a bus need a TCA9548A channel each",
        ])
    }

    func testMuxPlacementIsChecked() throws {
        let text = validBoard
            .replacingOccurrences(of: "actuators:", with: "muxes:\n  - name: grips\n    compatible: ti,tca9548a\n    bus: i2c1\n    reg: 0x78\nactuators:")
            .replacingOccurrences(of: "bus: i2c1\n    reg: 0x5a", with: "mux: grips\n    mux-channel: 8\n    reg: 0x5a")
        XCTAssertEqual(try problems(in: text), [
            "test.yml:10:5: muxes[0].reg: a TCA9548A answers at 0x70...0x77, not 0x78",
            "test.yml:15:5: actuators[0].mux-channel: a TCA9548A has channels 0...7, not 8",
        ])
    }

    func testEveryProblemOfAFileIsReportedInOneRun() throws {
        // No buses, a misspelt key, an impossible address and a value of the wrong type.
        let text = """
            board: test
            actuators:
              - name: main
                compatible: ti,drv2605l
                bus: i2c1
                reg: 0x5b
                actuator-mode: LRA
                vib-rate-mv: 2000
                vib-overdrive-mv: lots
                resonant-frequency-hz: 175

            """
        XCTAssertEqual(try problems(in: text), [
            "test.yml:1:1: (top level): missing required key 'buses'",
            "test.yml:6:5: actuators[0].reg: a DRV260x answers only at 0x5A, not 0x5B; put several behind a TCA9548A",
            "test.yml:8:5: actuators[0].vib-rate-mv: unknown key 'vib-rate-mv'; did you mean 'vib-rated-mv'?",
            "test.yml:9:5: actuators[0].vib-overdrive-mv: expected an integer",
        ])
    }

    func testEveryUnknownKeyOfALargeMappingIsReportedWithItsPlace() throws {
        // Once found by fuzzing: the work per unknown key grew with the mapping's size, so a
        // file of 3,000 unknown keys took 36 s to check (now about a second; not asserted).
        let unknown = (0..<2_000).map { "unknown-\($0): \($0)\n" }.joined()
        let text = validBoard + unknown + "descripton: a typo\n"
        let found = try problems(in: text)
        XCTAssertEqual(found.count, 2_001)
        XCTAssertEqual(found.first, "test.yml:17:1: unknown-0: unknown key 'unknown-0'; expected one of: actuators, audio, board, buses, description, force-feedback, inputs, muxes, power")
        XCTAssertEqual(found.last, "test.yml:2017:1: descripton: unknown key 'descripton'; did you mean 'description'?")
    }

    func testANumberWithColonsIsRefusedWhereverANumberIsWanted() throws {
        // YAML 1.1 would read 2:00 as 120 (base 60), and twelve such digits overflowed Yams's
        // integer and trapped. A text value may still hold colons.
        let text = validBoard
            .replacingOccurrences(of: "vib-rated-mv: 2000", with: "vib-rated-mv: 2:00")
            .replacingOccurrences(of: "library-sel: 6", with: "library-sel: 1:0:0:0:0:0:0:0:0:0:0:0")
            .replacingOccurrences(of: "board: test", with: "board: test\ndescription: rev 2:30, bench unit")
        XCTAssertEqual(try problems(in: text), [
            "test.yml:14:5: actuators[0].vib-rated-mv: '2:00' is not a number here: write it in decimal (YAML 1.1 would read a number with colons in base 60, 1:30 as 90)",
            "test.yml:17:5: actuators[0].library-sel: '1:0:0:0:0:0:0:0:0:0:0:0' is not a number here: write it in decimal (YAML 1.1 would read a number with colons in base 60, 1:30 as 90)",
        ])
    }

    func testAliasesThatMultiplyABoardBeyondItsSizeAreRefused() throws {
        // Nine aliases of nine aliases, nine deep: 387 million values from 400 bytes, which the
        // checks walked for as long as it took (a "billion laughs").
        var text = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        for (name, previous) in zip("bcdefghi", "abcdefgh") {
            text += "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 9).joined(separator: ", ") + "]\n"
        }
        text += "board: laughs\nbuses: *i\n"
        XCTAssertThrowsError(try BoardFile.parse(text, path: "laughs.yml")) { error in
            XCTAssertEqual((error as? BoardFileError)?.description, "laughs.yml: its aliases (*name) expand it to more than \(text.utf8.count + 1_000) values, more than a board of its size holds; write the values out or share fewer")
        }
        // Sharing a value is what aliases are for, and fits.
        let shared = validBoard.replacingOccurrences(of: "vib-rated-mv: 2000", with: "vib-rated-mv: &rated 2000")
            .replacingOccurrences(of: "vib-overdrive-mv: 2800", with: "vib-overdrive-mv: *rated")
        XCTAssertEqual(try problems(in: shared), [])
        XCTAssertEqual(try BoardFile.parse(shared, path: "test.yml").description.actuators.first?.vibOverdriveMillivolts, 2000)
    }

    func testABoardNestedBeyondWhatTheReaderCanRecurseIsRefused() throws {
        // 5,000 nested brackets (10 KB) overflowed the stack in Yams's recursive composer.
        let text = "board: deep\nbuses: " + String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000) + "\n"
        XCTAssertThrowsError(try BoardFile.parse(text, path: "deep.yml")) { error in
            XCTAssertEqual((error as? BoardFileError)?.description, "deep.yml: it may nest up to 10003 levels deep by its brackets, indicators and indentation, more than the 200 a board file may; a board needs a handful")
        }
        // The same nesting in block style, one sequence per line.
        let block = "board: deep\nbuses:\n" + (0..<300).map { String(repeating: " ", count: $0) + "-" }.joined(separator: "\n") + " x\n"
        XCTAssertThrowsError(try BoardFile.parse(block, path: "deep.yml"))
    }

    func testEveryShippedBoardIsFarFromTheNestingLimit() throws {
        let boards = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Boards").standardized
        let files = try FileManager.default.contentsOfDirectory(atPath: boards.path).filter { $0.hasSuffix(".yml") }
        XCTAssertFalse(files.isEmpty)
        for file in files {
            let text = try String(contentsOf: boards.appendingPathComponent(file), encoding: .utf8)
            XCTAssertLessThanOrEqual(YAMLNesting.bound(of: text), 40, file)
        }
    }

    func testABoardThatDoesNotCheckIsNotOpened() {
        let text = validBoard.replacingOccurrences(of: "reg: 0x5a", with: "reg: 0x5b").replacingOccurrences(of: "vib-rated-mv", with: "vib-rate-mv")
        XCTAssertThrowsError(try Board(yaml: text, source: "test.yml")) { error in
            guard case BoardError.invalid(let problems) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(problems.count, 2, problems.map(\.description).joined(separator: "\n"))
        }
    }
}
