import Foundation
import XCTest
@testable import hapticboard

/// Global behaviour of the built command: JSON, exit statuses, errors, the default board.
final class CommandLineTests: XCTestCase {
    private func hapticboard(_ arguments: [String], environment: [String: String] = [:]) throws -> BuiltCommand.Run {
        try BuiltCommand().run(arguments, environment: environment)
    }

    func testProbeJSONOnTheDefaultBoardReportsDeviceID7() throws {
        let run = try hapticboard(["probe", "--json"])
        XCTAssertEqual(run.status, 0, run.errorOutput)
        let document = try run.json()
        XCTAssertEqual(document["board"] as? String, "sim")
        let chip = try XCTUnwrap((document["chips"] as? [[String: Any]])?.first)
        XCTAssertEqual(chip["deviceID"] as? Int, 7)
    }

    func testRegistersJSONOnTheSimBoard() throws {
        let run = try hapticboard(["registers", "--board", "sim", "--json"])
        XCTAssertEqual(run.status, 0, run.errorOutput)
        let chip = try XCTUnwrap((try run.json()["chips"] as? [[String: Any]])?.first)
        let status = try XCTUnwrap((chip["registers"] as? [[String: Any]])?.first)
        XCTAssertEqual(status["value"] as? String, "0xE0")
    }

    func testErrorsGoToStandardErrorWithExitStatus1() throws {
        let run = try hapticboard(["registers", "--board", "no-such-board"])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.output.isEmpty)
        XCTAssertTrue(run.errorOutput.hasPrefix("hapticboard: error: no board 'no-such-board'"), run.errorOutput)
    }

    func testTheBoardComesFromTheEnvironmentWhenNotGiven() throws {
        let run = try hapticboard(["probe"], environment: ["HAPTICBOARD_BOARD": "from-the-environment"])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.errorOutput.contains("no board 'from-the-environment'"), run.errorOutput)
        let overridden = try hapticboard(["probe", "--board", "sim"], environment: ["HAPTICBOARD_BOARD": "from-the-environment"])
        XCTAssertEqual(overridden.status, 0, overridden.errorOutput)
    }

    func testDefaultBoardOrder() {
        let none: (String) -> Bool = { _ in false }
        let system: (String) -> Bool = { $0 == GlobalOptions.systemBoardFile }
        XCTAssertEqual(GlobalOptions.defaultBoard(option: "a.yml", environment: ["HAPTICBOARD_BOARD": "b"], fileExists: system), "a.yml")
        XCTAssertEqual(GlobalOptions.defaultBoard(option: nil, environment: ["HAPTICBOARD_BOARD": "b"], fileExists: system), "b")
        XCTAssertEqual(GlobalOptions.defaultBoard(option: nil, environment: [:], fileExists: system), GlobalOptions.systemBoardFile)
        XCTAssertEqual(GlobalOptions.defaultBoard(option: nil, environment: [:], fileExists: none), "sim")
    }

    func testUsageErrorsExitWith2() throws {
        let run = try hapticboard(["play", "--no-such-option"])
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.errorOutput.contains("--no-such-option"), run.errorOutput)
    }

    func testRealtimeCPUKeepsTheThreadsThereOrRefusesAnImpossibleOne() throws {
        let kept = try hapticboard(["play", "--quiet", "--realtime-cpu", "0", "--effect", "1"])
        XCTAssertEqual(kept.status, 0, kept.errorOutput)
        XCTAssertFalse(kept.errorOutput.contains("CPU 0"), kept.errorOutput)
        let negative = try hapticboard(["play", "--realtime-cpu=-1", "--effect", "1"])
        XCTAssertEqual(negative.status, 2)
        XCTAssertTrue(negative.errorOutput.contains("--realtime-cpu must be a CPU number"), negative.errorOutput)
        // A CPU the machine does not have: played all the same, with a warning naming it.
        let absent = try hapticboard(["play", "--realtime-cpu", "1000", "--effect", "1"])
        XCTAssertEqual(absent.status, 0, absent.errorOutput)
        XCTAssertTrue(absent.errorOutput.contains("CPU 1000"), absent.errorOutput)
    }

    func testHelpDocumentsExitStatusesAndCompletions() throws {
        let run = try hapticboard(["--help"])
        XCTAssertEqual(run.status, 0)
        for text in ["130", "143", "usage error", "--generate-completion-script", "play", "inspect", "render", "calibrate", "status", "boards"] {
            XCTAssertTrue(run.output.contains(text), "help lacks \(text)")
        }
    }

    func testVerboseLogsToStandardErrorOnly() throws {
        let run = try hapticboard(["play", "-v", "--fast", "--quiet", "--json", "--effect", "1"])
        XCTAssertEqual(run.status, 0, run.errorOutput)
        XCTAssertTrue(run.errorOutput.contains("playing"), run.errorOutput)
        XCTAssertNoThrow(try run.json())
    }
}
