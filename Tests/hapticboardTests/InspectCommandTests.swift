import Foundation
import XCTest

/// `hapticboard inspect` on the shipped examples and on broken files.
final class InspectCommandTests: XCTestCase {
    private func examples(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: BuiltCommand.path("Examples/\(folder)"))
            .filter { ["ahap", "hnl", "notes", "json"].contains(($0 as NSString).pathExtension) }
            .sorted()
            .map { BuiltCommand.path("Examples/\(folder)/\($0)") }
    }

    private func temporaryFile(_ name: String, _ text: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("inspect-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    func testEveryExampleIsValid() throws {
        let files = try examples(in: "ahap") + examples(in: "notation") + examples(in: "notes")
        XCTAssertGreaterThan(files.count, 20)
        let run = try BuiltCommand().run(["inspect", "--json"] + files)
        XCTAssertEqual(run.status, 0, run.errorOutput)
        let summaries = try XCTUnwrap(try run.json()["files"] as? [[String: Any]])
        XCTAssertEqual(summaries.count, files.count)
    }

    func testSuccessConfirmationSummary() throws {
        let run = try BuiltCommand().run(["inspect", "--json", BuiltCommand.path("Examples/notation/success-confirmation.hnl")])
        XCTAssertEqual(run.status, 0, run.errorOutput)
        let summary = try XCTUnwrap((try run.json()["files"] as? [[String: Any]])?.first)
        XCTAssertEqual(summary["format"] as? String, "notation")
        XCTAssertEqual(summary["eventCount"] as? Int, 7)
        XCTAssertEqual(summary["events"] as? [String: Int], ["HapticTransient": 6, "HapticContinuous": 1])
        XCTAssertEqual(try XCTUnwrap(summary["duration"] as? Double), 1.46, accuracy: 1e-9)
        XCTAssertNil(summary["program"])
    }

    func testCurvesParametersAndWarningsAreListed() throws {
        let run = try BuiltCommand().run(["inspect", "--json"] + ["parameter-curves", "dynamic-parameters", "real-world-quirks"].map { BuiltCommand.path("Examples/ahap/\($0).ahap") })
        XCTAssertEqual(run.status, 0, run.errorOutput)
        let summaries = try XCTUnwrap(try run.json()["files"] as? [[String: Any]])
        XCTAssertEqual((summaries[0]["curves"] as? [[String: Any]])?.count, 2)
        XCTAssertEqual((summaries[1]["parameters"] as? [[String: Any]])?.count, 4)
        let warnings = try XCTUnwrap(summaries[2]["warnings"] as? [String])
        XCTAssertTrue(warnings.contains { $0.contains("clamped") }, "\(warnings)")
        XCTAssertTrue(warnings.contains { $0.contains("split") }, "\(warnings)")
    }

    func testProgramIsCompiledForTheSimActuator() throws {
        let run = try BuiltCommand().run(["inspect", "--program", "--json", BuiltCommand.path("Examples/notation/success-confirmation.hnl")])
        XCTAssertEqual(run.status, 0, run.errorOutput)
        let summary = try XCTUnwrap((try run.json()["files"] as? [[String: Any]])?.first)
        let program = try XCTUnwrap(summary["program"] as? [String: Any])
        XCTAssertEqual(program["actuator"] as? String, "main")
        let commands = try XCTUnwrap(program["commands"] as? [[String: Any]]).compactMap { $0["command"] as? String }
        // Six transients on an LRA-library chip: six ROM triggers; the continuous event streams.
        XCTAssertEqual(commands.filter { $0.hasPrefix("trigger") }.count, 6)
        XCTAssertTrue(commands.contains("prepare realtimeAmplitude"))
        XCTAssertEqual(commands.last, "stop")
    }

    func testProgramForARealBoardDoesNotTouchHardware() throws {
        let run = try BuiltCommand().run(["inspect", "--program", "--board", "raspberry-pi-zero-2w-drv2605l", BuiltCommand.path("Examples/ahap/transients.ahap")])
        XCTAssertEqual(run.status, 0, run.errorOutput)
        XCTAssertTrue(run.output.contains("program for"), run.output)
    }

    func testActuatorIsChosenByName() throws {
        let path = BuiltCommand.path("Examples/ahap/transients.ahap")
        let run = try BuiltCommand().run(["inspect", "--program", "--json", "--board", "cm4-dual-drv2605l-tca9548a", "--actuator", "right", path])
        XCTAssertEqual(run.status, 0, run.errorOutput)
        let summary = try XCTUnwrap((try run.json()["files"] as? [[String: Any]])?.first)
        XCTAssertEqual((summary["program"] as? [String: Any])?["actuator"] as? String, "right")
        let unknown = try BuiltCommand().run(["inspect", "--program", "--board", "cm4-dual-drv2605l-tca9548a", "--actuator", "middle", path])
        XCTAssertEqual(unknown.status, 1)
        XCTAssertTrue(unknown.errorOutput.contains("has no actuator 'middle'; it has left, right"), unknown.errorOutput)
    }

    func testBrokenAHAPExitsWith1AndALocatedError() throws {
        let file = try temporaryFile("broken.ahap", "{\n  \"Pattern\": [\n    {\"Event\": {\"Time\": 0, \"EventType\": \"HapticTap\"}}\n  ]\n}\n")
        let run = try BuiltCommand().run(["inspect", file])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.errorOutput.hasPrefix("hapticboard: error: \(file):3:"), run.errorOutput)
        XCTAssertTrue(run.errorOutput.contains("HapticTap"), run.errorOutput)
    }

    func testBrokenJSONSyntaxIsLocatedByLineAndColumn() throws {
        let file = try temporaryFile("syntax.ahap", "{\n  \"Pattern\": [\n    {\"Event\": {\"Time\": 0,, }}\n  ]\n}\n")
        let run = try BuiltCommand().run(["inspect", file])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.errorOutput.contains("\(file):3:"), run.errorOutput)
    }

    func testBrokenNotationShowsLineColumnAndHint() throws {
        let file = try temporaryFile("broken.hnl", "loud sharp\n. 0.2s\nlod\n")
        let run = try BuiltCommand().run(["inspect", file])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.errorOutput.contains("\(file):3:1:"), run.errorOutput)
        XCTAssertTrue(run.errorOutput.contains("did you mean 'loud'"), run.errorOutput)
    }

    func testOneBrokenFileAmongGoodOnesStillExits1AndSummarisesTheRest() throws {
        let broken = try temporaryFile("notes.notes", "selection\nimpact.enormous\n")
        let run = try BuiltCommand().run(["inspect", BuiltCommand.path("Examples/ahap/transients.ahap"), broken])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.output.contains("transients.ahap: ahap, 5 event(s)"), run.output)
        XCTAssertTrue(run.errorOutput.contains("\(broken):2:1"), run.errorOutput)
    }

    func testUnknownExtensionAndMissingFile() throws {
        let unknown = try temporaryFile("pattern.xyz", "loud sharp\n")
        let run = try BuiltCommand().run(["inspect", unknown, "/nonexistent/pattern.ahap", "/nonexistent/sound.wav"])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.errorOutput.contains("pattern.xyz: unknown content type"), run.errorOutput)
        XCTAssertTrue(run.errorOutput.contains("/nonexistent/pattern.ahap"), run.errorOutput)
        XCTAssertTrue(run.errorOutput.contains("/nonexistent/sound.wav: cannot read sound file"), run.errorOutput)
    }
}
