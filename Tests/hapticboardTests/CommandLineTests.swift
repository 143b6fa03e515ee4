import Foundation
import XCTest

/// Runs the built `hapticboard` binary, which SwiftPM places next to the test bundle.
final class CommandLineTests: XCTestCase {
    private struct Run {
        var status: Int32
        var output: String
        var errorOutput: String
    }

    private func hapticboard(_ arguments: [String]) throws -> Run {
        let testBundle = URL(fileURLWithPath: CommandLine.arguments[0])
        let binary = testBundle.deletingLastPathComponent().appendingPathComponent("hapticboard")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw XCTSkip("hapticboard is not built next to the tests at \(binary.path)")
        }
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let output = Pipe()
        let errorOutput = Pipe()
        process.standardOutput = output
        process.standardError = errorOutput
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errorOutput.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self), errorOutput: String(decoding: errorData, as: UTF8.self))
    }

    func testProbeJSONOnTheDefaultBoardReportsDeviceID7() throws {
        let run = try hapticboard(["probe", "--json"])
        XCTAssertEqual(run.status, 0, run.errorOutput)
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        XCTAssertEqual(document["board"] as? String, "sim")
        let chip = try XCTUnwrap((document["chips"] as? [[String: Any]])?.first)
        XCTAssertEqual(chip["deviceID"] as? Int, 7)
    }

    func testRegistersJSONOnTheSimBoard() throws {
        let run = try hapticboard(["registers", "--board", "sim", "--json"])
        XCTAssertEqual(run.status, 0, run.errorOutput)
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let chip = try XCTUnwrap((document["chips"] as? [[String: Any]])?.first)
        let status = try XCTUnwrap((chip["registers"] as? [[String: Any]])?.first)
        XCTAssertEqual(status["value"] as? String, "0xE0")
    }

    func testErrorsGoToStandardErrorWithExitStatus1() throws {
        let run = try hapticboard(["registers", "--board", "no-such-board"])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.output.isEmpty)
        XCTAssertTrue(run.errorOutput.contains("no board 'no-such-board'"), run.errorOutput)
    }
}
