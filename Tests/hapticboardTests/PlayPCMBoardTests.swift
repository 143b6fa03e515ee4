import Foundation
import XCTest

/// A board whose actuator is driven as audio (`compatible: pcm-actuator`) on a simulated device
/// (`device: sim`): `play`, `status` and `inspect` open it as an engine actuator.
final class PlayPCMBoardTests: XCTestCase {
    /// A 170 Hz LRA on channels 3–4 of a four-channel simulated device.
    static let board = """
    board: sim-pcm
    description: Simulated 170 Hz LRA on channels 3-4 of a four-channel device
    buses: []
    actuators:
      - name: grip
        compatible: pcm-actuator
        device: sim
        channels: 4
        channel-map: [3, 4]
        sample-rate: 48000
        period-frames: 128
        actuator-mode: LRA
        resonant-frequency-hz: 170
        max-amplitude: 0.8
    """

    private var boardPath: String!

    override func setUpWithError() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hapticboard-pcm-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("sim-pcm.yml")
        try Self.board.write(to: file, atomically: true, encoding: .utf8)
        boardPath = file.path
    }

    override func tearDownWithError() throws {
        if let boardPath { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: boardPath).deletingLastPathComponent().path) }
    }

    func testAContinuousPatternDrivesTheLRAAtItsResonance() throws {
        let run = try BuiltCommand().run([
            "play", "--fast", "--quiet", "--json", "--board", boardPath,
            "--notation", "continuous 0.3s:;  intensity: loud;  sharpness: sharp",
        ])
        XCTAssertEqual(run.status, 0, run.errorOutput)
        let summary = try run.json()
        XCTAssertEqual(summary["actuators"] as? [String], ["grip"])
        XCTAssertEqual(summary["late"] as? Int, 0, "\(summary)")
        let drive = try XCTUnwrap((summary["pcm"] as? [[String: Any]])?.first, "\(summary)")
        XCTAssertEqual(drive["channel"] as? Int, 3)
        XCTAssertEqual(try XCTUnwrap(drive["driveFrequencyHz"] as? Double), 170, accuracy: 1)
        // Full intensity, capped by max-amplitude 0.8.
        let peak = try XCTUnwrap(drive["peak"] as? Double)
        XCTAssertGreaterThan(peak, 0.5)
        XCTAssertLessThanOrEqual(peak, 0.8 + 1e-3)
        // Blocks fit the device's four-period buffer behind the output latency: the timing thread
        // never waits in a write.
        XCTAssertEqual(drive["writesThatWaited"] as? Int, 0, "\(drive)")
        // 0.3 s of drive at 48 kHz, plus the output latency's silence.
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(drive["frames"] as? Int), 14_400)
        let transitions = try XCTUnwrap(summary["transitions"] as? [[String: Any]])
        XCTAssertEqual(transitions.first?["transition"] as? String, "wake")
        XCTAssertEqual(transitions.last?["to"] as? String, "standby")
        // Every transition is measured against a real budget, standby (dropping the queue) included.
        for transition in transitions {
            XCTAssertGreaterThan(try XCTUnwrap(transition["budgetMicroseconds"] as? Double), 0, "\(transition)")
            XCTAssertEqual(transition["overruns"] as? Int, 0, "\(transition)")
        }
    }

    func testStatusWakesThePCMActuator() throws {
        let run = try BuiltCommand().run(["status", "--json", "--board", boardPath])
        XCTAssertEqual(run.status, 0, run.errorOutput)
        XCTAssertTrue(run.output.contains("\"pcm-actuator\""), run.output)
        XCTAssertTrue(run.output.contains("\"grip\""), run.output)
    }

    func testInspectCompilesPCMDrive() throws {
        let run = try BuiltCommand().run(["inspect", "--program", "--json", "--board", boardPath, BuiltCommand.path("Examples/ahap/transients.ahap")])
        XCTAssertEqual(run.status, 0, run.errorOutput)
        let file = try XCTUnwrap((try run.json()["files"] as? [[String: Any]])?.first)
        let program = try XCTUnwrap(file["program"] as? [String: Any])
        let commands = try XCTUnwrap(program["commands"] as? [[String: Any]]).compactMap { $0["command"] as? String }
        XCTAssertTrue(commands.contains { $0.hasPrefix("pcm") }, "\(commands)")
    }

    func testRenderExplainsThatItSimulatesChipsOnly() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("pcm-\(UUID().uuidString).svg").path
        let run = try BuiltCommand().run(["render", "--board", boardPath, BuiltCommand.path("Examples/ahap/transients.ahap"), "--svg", output])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.errorOutput.contains("actuator 'grip' of board 'sim-pcm' is a pcm-actuator"), run.errorOutput)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
    }

    func testAMissingALSADeviceIsNamedBeforePlaying() throws {
        let missing = Self.board.replacingOccurrences(of: "device: sim", with: "device: hw:CARD=HapticboardNoSuchCard,DEV=0")
        let file = URL(fileURLWithPath: boardPath).deletingLastPathComponent().appendingPathComponent("missing.yml")
        try missing.write(to: file, atomically: true, encoding: .utf8)
        let run = try BuiltCommand().run(["play", "--fast", "--quiet", "--board", file.path, BuiltCommand.path("Examples/ahap/transients.ahap")])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.errorOutput.contains("hapticboard: error: cannot open PCM device hw:CARD=HapticboardNoSuchCard,DEV=0"), run.errorOutput)
    }
}
