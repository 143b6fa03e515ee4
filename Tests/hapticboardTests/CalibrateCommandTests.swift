import ActuatorHAL
import Foundation
import XCTest
@testable import hapticboard

/// `hapticboard calibrate` stores results per board and actuator; later runs reuse them.
final class CalibrateCommandTests: XCTestCase {
    private func stateDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("state-\(UUID().uuidString)").path
    }

    private func outcome(_ run: BuiltCommand.Run) throws -> [String: Any] {
        XCTAssertEqual(run.status, 0, run.errorOutput)
        return try XCTUnwrap((try run.json()["actuators"] as? [[String: Any]])?.first)
    }

    func testCalibrateStoresThenReusesThenForces() throws {
        let state = stateDirectory()
        let command = try BuiltCommand()
        let first = try outcome(command.run(["calibrate", "--state-dir", state, "--json"]))
        XCTAssertEqual(first["calibrated"] as? Bool, true)
        let stored = try XCTUnwrap(first["result"] as? [String: Any])
        XCTAssertNotNil(stored["compensation"] as? Int)

        let file = try Data(contentsOf: URL(fileURLWithPath: state + "/calibration.json"))
        let contents = try JSONDecoder().decode(CalibrationStore.Contents.self, from: file)
        let result = try XCTUnwrap(contents.result(board: "sim", actuator: "main"))
        XCTAssertEqual(Int(result.compensation), stored["compensation"] as? Int)
        XCTAssertEqual(Int(result.backEMF), stored["backEMF"] as? Int)

        let second = try outcome(command.run(["calibrate", "--state-dir", state, "--json"]))
        XCTAssertEqual(second["calibrated"] as? Bool, false)
        XCTAssertEqual((second["result"] as? [String: Any])?["calibratedAt"] as? String, stored["calibratedAt"] as? String)

        let forced = try command.run(["calibrate", "--state-dir", state, "--force", "--json"])
        XCTAssertEqual(try outcome(forced)["calibrated"] as? Bool, true)
        XCTAssertTrue(forced.errorOutput.contains("auto-calibration running"), forced.errorOutput)
    }

    func testStatusShowsStoredCalibration() throws {
        let state = stateDirectory()
        let command = try BuiltCommand()
        let before = try command.run(["status", "--state-dir", state, "--json"])
        XCTAssertEqual(before.status, 0, before.errorOutput)
        let chipBefore = try XCTUnwrap((try before.json()["chips"] as? [[String: Any]])?.first)
        XCTAssertNil(chipBefore["calibration"])
        XCTAssertEqual(chipBefore["powerState"] as? String, "standby")
        XCTAssertEqual(chipBefore["faults"] as? [String], [])

        XCTAssertEqual(try command.run(["calibrate", "--state-dir", state]).status, 0)
        let after = try command.run(["status", "--state-dir", state, "--json"])
        let chipAfter = try XCTUnwrap((try after.json()["chips"] as? [[String: Any]])?.first)
        XCTAssertNotNil(chipAfter["calibration"] as? [String: Any])
    }

    func testUnknownActuatorAndUnreadableState() throws {
        let state = stateDirectory()
        let command = try BuiltCommand()
        let unknown = try command.run(["calibrate", "--state-dir", state, "--actuator", "left"])
        XCTAssertEqual(unknown.status, 1)
        XCTAssertTrue(unknown.errorOutput.contains("has no actuator 'left'; it has main"), unknown.errorOutput)

        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        try "not json".write(toFile: state + "/calibration.json", atomically: true, encoding: .utf8)
        let broken = try command.run(["status", "--state-dir", state])
        XCTAssertEqual(broken.status, 1)
        XCTAssertTrue(broken.errorOutput.contains("calibration.json: calibration state"), broken.errorOutput)
    }

    /// docs/faults.md "disk full when storing calibration": a typed error naming the file and
    /// ENOSPC, and the file keeps the results it had (the write is atomic).
    func testADiskFullWhenStoringCalibrationIsATypedErrorAndKeepsTheStoredResults() throws {
        var store = CalibrationStore(directory: stateDirectory())
        var contents = CalibrationStore.Contents()
        let first = DRV2605CalibrationResult(compensation: 0x0C, backEMF: 0x6C, backEMFGain: 2)
        contents.store(first, board: "sim", actuator: "main", at: Date(timeIntervalSince1970: 0))
        try store.save(contents)
        let before = try Data(contentsOf: URL(fileURLWithPath: store.path))

        // What Foundation throws when write(2) finds the file system full.
        store.writeFile = { _, _ in
            throw NSError(domain: NSCocoaErrorDomain, code: CocoaError.fileWriteOutOfSpace.rawValue,
                          userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(ENOSPC))])
        }
        contents.store(DRV2605CalibrationResult(compensation: 0x0D, backEMF: 0x70, backEMFGain: 2), board: "sim", actuator: "main", at: Date())
        XCTAssertThrowsError(try store.save(contents)) { error in
            let message = "\(error)"
            XCTAssertTrue(message.hasPrefix(store.path + ": calibration state: cannot write it: No space left on device (errno 28)"), message)
            XCTAssertTrue(message.contains("not stored"), message)
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: store.path)), before, "the stored results are untouched")
        XCTAssertEqual(try CalibrationStore(directory: store.directory).load().result(board: "sim", actuator: "main"), first)
    }

    func testDefaultStateDirectory() {
        XCTAssertEqual(CalibrationStore.defaultDirectory(environment: [:], isRoot: true, home: "/home/pi"), "/var/lib/hapticboard")
        XCTAssertEqual(CalibrationStore.defaultDirectory(environment: ["XDG_STATE_HOME": "/state"], isRoot: false, home: "/home/pi"), "/state/hapticboard")
        XCTAssertEqual(CalibrationStore.defaultDirectory(environment: ["XDG_STATE_HOME": "relative"], isRoot: false, home: "/home/pi"), "/home/pi/.local/state/hapticboard")
        XCTAssertEqual(CalibrationStore.defaultDirectory(environment: [:], isRoot: false, home: "/home/pi"), "/home/pi/.local/state/hapticboard")
    }
}
