import Foundation
import XCTest
@testable import hapticboard

/// The systemd unit is valid for systemd itself, and runs the command with options it has.
final class PackagingTests: XCTestCase {
    func testTheUnitVerifiesAndItsCommandLineParses() throws {
        let analyze = "/usr/bin/systemd-analyze"
        guard FileManager.default.isExecutableFile(atPath: analyze) else { throw XCTSkip("systemd-analyze is not installed") }
        let command = try BuiltCommand()
        let unit = try String(contentsOfFile: BuiltCommand.path("Packaging/hapticboard.service"), encoding: .utf8)
        let execStart = try XCTUnwrap(unit.split(separator: "\n").first { $0.hasPrefix("ExecStart=") })
        let arguments = execStart.dropFirst("ExecStart=".count).split(separator: " ").map(String.init)
        XCTAssertEqual(arguments.first, "/usr/local/bin/hapticboard")
        // Every option the unit passes is one `serve` takes, with a value it accepts.
        let parsed = try HapticBoardCommand.parseAsRoot(Array(arguments.dropFirst()))
        XCTAssertTrue(parsed is ServeCommand, "\(parsed)")

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("unit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let local = folder.appendingPathComponent("hapticboard.service")
        try unit.replacingOccurrences(of: "/usr/local/bin/hapticboard", with: command.binary.path).write(to: local, atomically: true, encoding: .utf8)
        let verify = Process()
        verify.executableURL = URL(fileURLWithPath: analyze)
        verify.arguments = ["verify", "--man=no", local.path]
        let errors = Pipe()
        verify.standardError = errors
        verify.standardOutput = errors
        try verify.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        verify.waitUntilExit()
        XCTAssertEqual(verify.terminationStatus, 0, text)
        XCTAssertEqual(text.trimmingCharacters(in: .whitespacesAndNewlines), "", text)
    }
}
