import ActuatorHAL
import Foundation
import XCTest
@testable import hapticboard

final class RumbleCommandTests: XCTestCase {
    func testRumbleParsesAndExplainsItself() throws {
        let command = try XCTUnwrap(HapticBoardCommand.parseAsRoot(["rumble", "--board", "sim-dual-grips"]) as? RumbleCommand)
        XCTAssertEqual(command.options.board, "sim-dual-grips")
        let help = RumbleCommand.helpMessage()
        XCTAssertTrue(help.contains("FF_RUMBLE"))
        XCTAssertTrue(help.contains("/dev/uinput"))
    }

    /// Without uinput (this machine, or a kernel without the module) the command says why, with
    /// exit 1, and leaves nothing behind.
    func testRumbleWithoutUInputFailsCleanly() throws {
        guard !FileManager.default.fileExists(atPath: "/dev/uinput") else { throw XCTSkip("this machine has /dev/uinput") }
        let run = try BuiltCommand().run(["rumble", "--board", "sim"])
        XCTAssertEqual(run.status, 1, run.errorOutput)
        XCTAssertTrue(run.errorOutput.contains("hapticboard: error: cannot open /dev/uinput"), run.errorOutput)
    }

    func testProbeFFListsForceFeedbackDevices() throws {
        let run = try BuiltCommand().run(["probe", "--ff"])
        XCTAssertEqual(run.status, 0, run.errorOutput)
        if !FileManager.default.fileExists(atPath: "/dev/input") {
            XCTAssertEqual(run.output, "no input device with force feedback (EV_FF) in /dev/input\n")
        }
    }

    func testForceFeedbackDeviceReportNamesWhatEvdevFFWouldDrive() {
        let capabilities = ForceFeedbackCapabilities(effectTypes: [.rumble, .periodic], waveforms: [.sine], supportsGain: true, effectSlots: 4)
        XCTAssertEqual(capabilities.names, ["FF_RUMBLE", "FF_PERIODIC", "FF_SINE", "FF_GAIN"])
        XCTAssertEqual(ForceFeedbackDrive(capabilities: capabilities), .rumble)
        let spring = ForceFeedbackCapabilities(effectTypes: [.spring], waveforms: [], supportsGain: false, effectSlots: 1)
        XCTAssertNil(ForceFeedbackDrive(capabilities: spring))
    }
}
