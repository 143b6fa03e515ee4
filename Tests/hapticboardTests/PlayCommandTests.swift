import Foundation
import XCTest

/// `hapticboard play` on the sim board, checked through its JSON summary.
final class PlayCommandTests: XCTestCase {
    /// `play --fast --quiet --json` and its summary.
    private func play(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let run = try BuiltCommand().run(["play", "--fast", "--quiet", "--json"] + arguments)
        XCTAssertEqual(run.status, 0, run.errorOutput, file: file, line: line)
        return try run.json(file: file, line: line)
    }

    /// The commands `inspect --program` compiles for the sim actuator.
    private func programCommands(_ path: String) throws -> [String] {
        let run = try BuiltCommand().run(["inspect", "--program", "--json", path])
        XCTAssertEqual(run.status, 0, run.errorOutput)
        let summary = try XCTUnwrap((try run.json()["files"] as? [[String: Any]])?.first)
        let program = try XCTUnwrap(summary["program"] as? [String: Any])
        return try XCTUnwrap(program["commands"] as? [[String: Any]]).compactMap { $0["command"] as? String }
    }

    private func assertEndedInStandby(_ summary: [String: Any], file: StaticString = #filePath, line: UInt = #line) throws {
        let chip = try XCTUnwrap(summary["chip"] as? [String: Any], file: file, line: line)
        XCTAssertEqual(chip["standby"] as? Bool, true, file: file, line: line)
        XCTAssertEqual(chip["realtimeInput"] as? String, "0x00", file: file, line: line)
        let transitions = try XCTUnwrap(summary["transitions"] as? [[String: Any]], file: file, line: line)
        XCTAssertEqual(transitions.first?["transition"] as? String, "wake", file: file, line: line)
        XCTAssertEqual(transitions.last?["to"] as? String, "standby", file: file, line: line)
        for transition in transitions {
            XCTAssertEqual(transition["overran"] as? Bool, false, "\(transition)", file: file, line: line)
        }
    }

    private func assertPlaysEveryCommand(of path: String, events: Int) throws {
        let summary = try play([path])
        XCTAssertEqual(summary["events"] as? Int, events)
        XCTAssertEqual(summary["passes"] as? Int, 1)
        XCTAssertEqual(summary["commands"] as? Int, try programCommands(path).count)
        XCTAssertEqual(summary["late"] as? Int, 0)
        XCTAssertEqual(summary["dropped"] as? Int, 0)
        XCTAssertNil(summary["stoppedBy"])
        try assertEndedInStandby(summary)
    }

    func testAHAPFile() throws {
        try assertPlaysEveryCommand(of: BuiltCommand.path("Examples/ahap/transients.ahap"), events: 5)
    }

    func testNotationFile() throws {
        try assertPlaysEveryCommand(of: BuiltCommand.path("Examples/notation/success-confirmation.hnl"), events: 7)
    }

    func testNotesFile() throws {
        try assertPlaysEveryCommand(of: BuiltCommand.path("Examples/notes/confirmation.notes"), events: 4)
    }

    func testNotationText() throws {
        let summary = try play(["--notation", "loud sharp; . 0.2s; soft dull"])
        XCTAssertEqual(summary["events"] as? Int, 2)
        XCTAssertEqual(summary["content"] as? [String], ["--notation"])
        XCTAssertEqual(try XCTUnwrap(summary["elapsedSeconds"] as? Double), 0.2, accuracy: 0.1)
        try assertEndedInStandby(summary)
    }

    func testROMEffectPlaysToItsEnd() throws {
        let summary = try play(["--effect", "47"])
        XCTAssertEqual(summary["events"] as? Int, 1)
        // prepare, trigger, stop.
        XCTAssertEqual(summary["commands"] as? Int, 3)
        try assertEndedInStandby(summary)
    }

    func testFilesPlayOneAfterTheOther() throws {
        let files = ["Examples/ahap/transients.ahap", "Examples/notes/confirmation.notes"].map(BuiltCommand.path)
        let both = try play(files)
        let first = try play([files[0]])
        let second = try play([files[1]])
        XCTAssertEqual(both["events"] as? Int, 9)
        XCTAssertEqual(both["commands"] as? Int, (first["commands"] as? Int ?? 0) + (second["commands"] as? Int ?? 0))
        let elapsed = try XCTUnwrap(both["elapsedSeconds"] as? Double)
        let parts = try XCTUnwrap(first["elapsedSeconds"] as? Double) + XCTUnwrap(second["elapsedSeconds"] as? Double)
        XCTAssertEqual(elapsed, parts, accuracy: 0.01)
    }

    func testRateScalesTime() throws {
        let path = BuiltCommand.path("Examples/notation/success-confirmation.hnl")
        let normal = try XCTUnwrap(try play([path])["elapsedSeconds"] as? Double)
        let double = try XCTUnwrap(try play(["--rate", "2", path])["elapsedSeconds"] as? Double)
        XCTAssertEqual(double, normal / 2, accuracy: 0.01)
    }

    func testStoredCalibrationIsRestored() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("play-\(UUID().uuidString)").path
        XCTAssertEqual(try play(["--state-dir", state, "--effect", "1"])["calibration"] as? String, "none")
        XCTAssertEqual(try BuiltCommand().run(["calibrate", "--state-dir", state]).status, 0)
        XCTAssertEqual(try play(["--state-dir", state, "--effect", "1"])["calibration"] as? String, "stored")
    }

    func testContentErrorsAndBadOptionsExit1() throws {
        for arguments in [["play"], ["play", "--effect", "124"], ["play", "--effect", "1", "--notation", "loud"], ["play", "--rate", "0", "--effect", "1"], ["play", "--notation", "loud; lod"], ["play", "--effect", "1", "--actuator", "left"]] {
            let run = try BuiltCommand().run(arguments)
            XCTAssertEqual(run.status, 1, "\(arguments)")
            XCTAssertTrue(run.errorOutput.hasPrefix("hapticboard: error: "), "\(arguments): \(run.errorOutput)")
        }
    }
}
