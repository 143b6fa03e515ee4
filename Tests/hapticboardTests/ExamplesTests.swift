import XCTest

/// The examples under Examples/ run on the simulated board and do what they say.
/// (Examples/TestRigBus, a package of its own, runs in Scripts/check-consumer-package.sh.)
final class ExamplesTests: XCTestCase {
    func testPlayAFilePlaysNotationOnTheSimBoard() throws {
        let run = try BuiltCommand("play-a-file").run(["Examples/notation/success-confirmation.hnl"])
        XCTAssertEqual(run.status, 0, run.output + run.errorOutput)
        XCTAssertTrue(run.output.hasPrefix("played success-confirmation.hnl on sim: 7 events, "), run.output)
        XCTAssertTrue(run.output.hasSuffix(", 0 late\n"), run.output)
    }

    func testPlayAFileReportsABadFile() throws {
        let run = try BuiltCommand("play-a-file").run(["Examples/no-such-file.ahap"])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.output.hasPrefix("play-a-file: "), run.output)
        XCTAssertTrue(run.output.contains("no-such-file.ahap"), run.output)
    }

    func testKioskButtonTicksConfirmsAndTicks() throws {
        let run = try BuiltCommand("kiosk-button").run([])
        XCTAssertEqual(run.status, 0, run.output + run.errorOutput)
        let lines = run.output.split(separator: "\n").map(String.init)
        XCTAssertEqual(Array(lines.prefix(3)), [
            "press 1: held 80 ms → tick",
            "press 2: held 700 ms → success",
            "press 3: held 50 ms → tick",
        ])
        XCTAssertTrue(lines.last?.hasPrefix("3 presses; the engine ran ") == true, run.output)
    }
}
