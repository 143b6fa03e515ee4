import Foundation
import XCTest

/// SIGINT and SIGTERM sent to a child `hapticboard play` on the sim board while it plays.
final class PlaySignalTests: XCTestCase {
    /// Starts a looping play at real-time pace, waits until it logs that playback is under way (so
    /// the signal lands mid-pattern whatever the machine's speed), sends the signal and collects the run.
    private func playInterrupted(by send: (Process) -> Void) throws -> BuiltCommand.Run {
        let command = try BuiltCommand()
        let (process, output, errorOutput) = command.process(["play", "-v", "--loop", "--quiet", "--json", BuiltCommand.path("Examples/notation/success-confirmation.hnl")])
        try process.run()
        // Only a safety net for a child that never gets going; the test itself waits on its output.
        DispatchQueue.global().asyncAfter(deadline: .now() + 60) { if process.isRunning { process.interrupt() } }
        var errors = Data()
        while !String(decoding: errors, as: UTF8.self).contains("playback under way") {
            let chunk = errorOutput.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            errors.append(chunk)
        }
        send(process)
        return BuiltCommand.finish(process, output: output, errorOutput: errorOutput, errorPrefix: errors)
    }

    private func assertStoppedInStandby(_ run: BuiltCommand.Run, status: Int32, signal: String) throws {
        XCTAssertEqual(run.status, status, run.errorOutput)
        let summary = try run.json()
        XCTAssertEqual(summary["stoppedBy"] as? String, signal)
        let chip = try XCTUnwrap((summary["chips"] as? [[String: Any]])?.first)
        XCTAssertEqual(chip["standby"] as? Bool, true)
        XCTAssertEqual(chip["realtimeInput"] as? String, "0x00")
        let mode = try XCTUnwrap(chip["mode"] as? String)
        XCTAssertEqual(UInt8(mode.dropFirst(2), radix: 16).map { $0 & 0x40 }, 0x40, mode)
        let transitions = try XCTUnwrap(summary["transitions"] as? [[String: Any]])
        // Tallies are in the order each kind first happened; a standby must be among them.
        XCTAssertTrue(transitions.contains { $0["transition"] as? String == "standby" && $0["to"] as? String == "standby" }, "\(transitions)")
    }

    func testSIGINTStopsTheActuatorInStandbyAndExits130() throws {
        try assertStoppedInStandby(playInterrupted { $0.interrupt() }, status: 130, signal: "SIGINT")
    }

    func testSIGTERMStopsTheActuatorInStandbyAndExits143() throws {
        try assertStoppedInStandby(playInterrupted { $0.terminate() }, status: 143, signal: "SIGTERM")
    }
}
