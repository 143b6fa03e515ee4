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
        let chip = try XCTUnwrap((summary["chips"] as? [[String: Any]])?.first, file: file, line: line)
        XCTAssertEqual(chip["standby"] as? Bool, true, file: file, line: line)
        XCTAssertEqual(chip["realtimeInput"] as? String, "0x00", file: file, line: line)
        let transitions = try XCTUnwrap(summary["transitions"] as? [[String: Any]], file: file, line: line)
        XCTAssertEqual(transitions.first?["transition"] as? String, "wake", file: file, line: line)
        XCTAssertTrue(transitions.contains { $0["transition"] as? String == "standby" && $0["to"] as? String == "standby" }, "\(transitions)", file: file, line: line)
        for transition in transitions {
            XCTAssertEqual(transition["overruns"] as? Int, 0, "\(transition)", file: file, line: line)
        }
    }

    /// The engine runs every command of the program plus a control action or two of its own
    /// (waking the chip ahead of the content, idle timers).
    private func assertRunsProgram(_ commands: Int?, _ programCount: Int, file: StaticString = #filePath, line: UInt = #line) {
        let count = commands ?? -1
        XCTAssertTrue((programCount...(programCount + 2)).contains(count), "\(count) actions for \(programCount) program commands", file: file, line: line)
    }

    private func assertPlaysEveryCommand(of path: String, events: Int) throws {
        let summary = try play([path])
        XCTAssertEqual(summary["events"] as? Int, events)
        XCTAssertEqual(summary["passes"] as? Int, 1)
        assertRunsProgram(summary["commands"] as? Int, try programCommands(path).count)
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
        // The second tap is a ROM click at 0.2 s; playback lasts until the chip says it ended
        // (GO cleared), which is the click's own length later.
        let elapsed = try XCTUnwrap(summary["elapsedSeconds"] as? Double)
        XCTAssertGreaterThan(elapsed, 0.2)
        XCTAssertLessThan(elapsed, 0.2 + 0.2)
        try assertEndedInStandby(summary)
    }

    func testROMEffectPlaysToItsEnd() throws {
        let summary = try play(["--effect", "47"])
        XCTAssertEqual(summary["events"] as? Int, 1)
        // prepare, trigger, stop.
        assertRunsProgram(summary["commands"] as? Int, 3)
        try assertEndedInStandby(summary)
    }

    /// A board with two simulated chips, each on its own simulated bus.
    private func twoChipBoard() throws -> String {
        let actuator = { (name: String, bus: String) in
            "  - name: \(name)\n    compatible: ti,drv2605l\n    bus: \(bus)\n    actuator-mode: LRA\n    vib-rated-mv: 2000\n    vib-overdrive-mv: 2800\n    resonant-frequency-hz: 175\n"
        }
        let text = "board: two-sim\nbuses:\n  - name: a\n    device: sim\n  - name: b\n    device: sim\nactuators:\n" + actuator("left", "a") + actuator("right", "b")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("two-sim-\(UUID().uuidString).yml").path
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    func testEveryActuatorPlaysUnlessOneIsNamed() throws {
        let board = try twoChipBoard()
        let path = BuiltCommand.path("Examples/notation/success-confirmation.hnl")
        let both = try play(["--board", board, path])
        XCTAssertEqual(both["actuators"] as? [String], ["left", "right"])
        let chips = try XCTUnwrap(both["chips"] as? [[String: Any]])
        XCTAssertEqual(chips.compactMap { $0["name"] as? String }, ["left", "right"])
        for chip in chips {
            XCTAssertEqual(chip["standby"] as? Bool, true)
            XCTAssertEqual(chip["realtimeInput"] as? String, "0x00")
        }
        let right = try play(["--board", board, "--actuator", "right", path])
        XCTAssertEqual(right["actuators"] as? [String], ["right"])
        XCTAssertGreaterThan(both["commands"] as? Int ?? 0, right["commands"] as? Int ?? 0)
    }

    func testLongROMEffectIsNotCutShort() throws {
        // Effect 47 is a 100 % buzz, far longer than a click.
        let buzz = try XCTUnwrap(try play(["--effect", "47"])["elapsedSeconds"] as? Double)
        let click = try XCTUnwrap(try play(["--effect", "1"])["elapsedSeconds"] as? Double)
        XCTAssertGreaterThan(buzz, click + 0.1)
    }

    func testContentWithoutEventsPlaysNothingAndEnds() throws {
        let summary = try play(["--notation", "# only a comment"])
        XCTAssertEqual(summary["events"] as? Int, 0)
        XCTAssertEqual(summary["elapsedSeconds"] as? Double, 0)
        // Nothing to play, so the chip was never woken.
        XCTAssertEqual((summary["transitions"] as? [[String: Any]])?.count, 0)
        XCTAssertEqual((summary["chips"] as? [[String: Any]])?.first?["enabled"] as? Bool, false)
    }

    /// A ROM effect asked for on a chip without ROM is a clear error, not a stand-in tap.
    func testAnEffectOnADRV2604IsRefusedNamingTheChip() throws {
        let text = try String(contentsOfFile: BuiltCommand.path("Boards/sim.yml"), encoding: .utf8)
            .replacingOccurrences(of: "ti,drv2605l", with: "ti,drv2604")
            .replacingOccurrences(of: "library-sel: 6", with: "library-sel: 0")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("drv2604-\(UUID().uuidString).yml").path
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let run = try BuiltCommand().run(["play", "--fast", "--quiet", "--board", file, "--effect", "47"])
        XCTAssertEqual(run.status, 1, run.output)
        XCTAssertTrue(run.errorOutput.contains("--effect 47: actuator main is a DRV2604, which has no ROM effect library"), run.errorOutput)
        // Other content plays on it, through real-time amplitude.
        let taps = try BuiltCommand().run(["play", "--fast", "--quiet", "--json", "--board", file, "--notation", "loud sharp"])
        XCTAssertEqual(taps.status, 0, taps.errorOutput)
    }

    /// Two DRV2605L chips behind one switch start content together: one broadcast write each.
    func testBothGripsOfTheSimulatedControllerStartInTheSameTransfer() throws {
        for content in ["Examples/ahap/transients.ahap", "Examples/ahap/continuous-envelopes.ahap"] {
            let summary = try play(["--board", "sim-dual-grips", BuiltCommand.path(content)])
            XCTAssertEqual(summary["actuators"] as? [String], ["left", "right"])
            XCTAssertEqual(summary["onsetSpreadMicroseconds"] as? Double, 0, "\(content): \(summary)")
            XCTAssertEqual((summary["chips"] as? [[String: Any]])?.count, 2)
        }
    }

    func testNoAudioLeavesAudioEventsOut() throws {
        let path = BuiltCommand.path("Examples/ahap/audio-custom.ahap")
        XCTAssertEqual(try play([path])["events"] as? Int, 4)
        XCTAssertEqual(try play(["--no-audio", path])["events"] as? Int, 2)
    }

    func testFilesPlayOneAfterTheOther() throws {
        let files = ["Examples/ahap/transients.ahap", "Examples/notes/confirmation.notes"].map(BuiltCommand.path)
        let both = try play(files)
        let first = try play([files[0]])
        let second = try play([files[1]])
        XCTAssertEqual(both["events"] as? Int, 9)
        // One engine wakes the chip once for both files.
        let separate = (first["commands"] as? Int ?? 0) + (second["commands"] as? Int ?? 0)
        XCTAssertTrue(((separate - 2)...separate).contains(both["commands"] as? Int ?? -1), "\(both) vs \(separate)")
        // Each file ends when the chip's last ROM effect does, seen by GO polls 10 ms apart.
        let elapsed = try XCTUnwrap(both["elapsedSeconds"] as? Double)
        let parts = try XCTUnwrap(first["elapsedSeconds"] as? Double) + XCTUnwrap(second["elapsedSeconds"] as? Double)
        XCTAssertEqual(elapsed, parts, accuracy: 0.025)
    }

    /// Streamed content scales with the rate (a ROM effect would not: the chip plays it at its own speed).
    func testRateScalesTime() throws {
        let path = BuiltCommand.path("Examples/notation/continuous-events.hnl")
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
        for arguments in [["play"], ["play", "--effect", "124"], ["play", "--effect", "1", "--notation", "loud"], ["play", "--rate", "0", "--effect", "1"], ["play", "--late-tolerance=-1", "--effect", "1"], ["play", "--notation", "loud; lod"], ["play", "--effect", "1", "--actuator", "left"], ["play", "--loop", "--notation", "# no events"]] {
            let run = try BuiltCommand().run(arguments)
            XCTAssertEqual(run.status, 1, "\(arguments)")
            XCTAssertTrue(run.errorOutput.hasPrefix("hapticboard: error: "), "\(arguments): \(run.errorOutput)")
        }
    }
}
