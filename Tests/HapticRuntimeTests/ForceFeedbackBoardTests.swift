import ActuatorHAL
import BoardFiles
import Foundation
import HardwareMocks
import XCTest
@testable import HapticRuntime

final class ForceFeedbackBoardTests: XCTestCase {
    private func board(_ actuator: String, extra: String = "") -> String {
        """
        board: pad
        buses: []
        actuators:
          - name: rumble
        \(actuator)
        \(extra)
        """
    }

    private let evdev = """
            compatible: evdev-ff
            device: sim
            actuator-mode: ERM
            update-rate-hz: 50
        """

    func testAnEvdevActuatorPlaysContentAsRumbleUploadsAtItsUpdateRate() throws {
        let hardware = SimulatedBoardHardware()
        let opened = try Board(yaml: board(evdev), source: "pad.yml").open(on: hardware)
        let actuator = try XCTUnwrap(opened.actuators.first?.forceFeedback)
        XCTAssertEqual(actuator.drive, .rumble)
        XCTAssertEqual(actuator.capabilities.amplitudeUpdateCost, .seconds(0.25 / 50))
        let engine = opened.makeEngine()
        try engine.start()
        // A one-second ramp from 0 to full: at 50 updates per second, at most 51 uploads.
        let pattern = HapticPattern(events: [HapticEvent(type: .hapticContinuous, time: 0, duration: 1, parameters: [EventParameter(.hapticIntensity, 1)])],
                                    parameterCurves: [ParameterCurve(.hapticIntensityControl, time: 0, controlPoints: [ControlPoint(time: 0, value: 0), ControlPoint(time: 1, value: 1)])])
        let player = try engine.makePlayer(with: pattern)
        try player.start(atTime: 0)
        engine.scheduler.run(until: hardware.virtualClock.now + .seconds(0.5))
        let recorder = try XCTUnwrap(hardware.forceFeedbackRecorders["rumble"])
        guard case .rumble(let strong, let weak)? = recorder.uploads.last?.kind else { return XCTFail("no rumble uploaded") }
        // Half-way up the ramp, at sharpness 0.5 on a fixed-frequency motor (0.9 of the intensity).
        XCTAssertEqual(Double(strong) / 0xFFFF, 0.45, accuracy: 0.06)
        XCTAssertEqual(strong, weak)
        engine.scheduler.run(until: hardware.virtualClock.now + .seconds(1))
        XCTAssertLessThanOrEqual(recorder.uploads.count, 52)
        XCTAssertGreaterThan(recorder.uploads.count, 20)
        // Played once while it drove, stopped at the end; one slot throughout.
        XCTAssertEqual(recorder.plays.map(\.count), [1, 0])
        XCTAssertEqual(Set(recorder.uploads.map(\.id)), [0])
        engine.stop()
        engine.scheduler.run(until: hardware.virtualClock.now + .seconds(60))
        XCTAssertEqual(actuator.powerState, .off)
        XCTAssertTrue(recorder.device.storedEffects.isEmpty, "sleep erases the effect")
    }

    func testAnUnpluggedDeviceStopsTheEngineWithATypedError() throws {
        let hardware = SimulatedBoardHardware()
        let opened = try Board(yaml: board(evdev), source: "pad.yml").open(on: hardware)
        let engine = opened.makeEngine()
        try engine.start()
        let stopped = expectation(description: "stopped")
        engine.stoppedHandler = { _ in stopped.fulfill() }
        let buzz = HapticPattern(events: [HapticEvent(type: .hapticContinuous, time: 0, duration: 10, parameters: [EventParameter(.hapticIntensity, 1)])])
        try engine.makePlayer(with: buzz).start(atTime: 0)
        engine.scheduler.run(until: hardware.virtualClock.now + .seconds(0.5))
        let recorder = try XCTUnwrap(hardware.forceFeedbackRecorders["rumble"])
        XCTAssertEqual(recorder.plays.first?.count, 1)
        recorder.device.close()
        engine.scheduler.run(until: hardware.virtualClock.now + .seconds(0.5))
        wait(for: [stopped], timeout: 5)
        XCTAssertFalse(engine.isRunning)
        XCTAssertTrue("\(engine.lastFault.map { "\($0)" } ?? "")".contains("ENODEV"), "\(String(describing: engine.lastFault))")
    }

    func testAnInputDeviceWithoutForceFeedbackFailsOpenAndCheckAtItsKey() throws {
        let hardware = SimulatedBoardHardware()
        let keyboard = SimulatedForceFeedbackDevice(setup: ForceFeedbackDeviceSetup(name: "keyboard", capabilities: ForceFeedbackCapabilities(effectTypes: [], waveforms: [], supportsGain: false, effectSlots: 0)))
        hardware.addInputDevice(keyboard, at: "/dev/input/event3")
        let text = board("""
                compatible: evdev-ff
                device: /dev/input/event3
                actuator-mode: ERM
            """)
        let board = try Board(yaml: text, source: "pad.yml")
        let problems = board.deviceProblems(on: hardware)
        XCTAssertEqual(problems.map(\.description), ["pad.yml:6:5: actuators[0].device: /dev/input/event3 ('keyboard') has no EV_FF: it is not a force-feedback device"])
        XCTAssertThrowsError(try board.open(on: hardware)) { error in
            XCTAssertEqual("\(error)", problems[0].description)
        }
        // A device that is not here is not a problem of the file.
        let elsewhere = try Board(yaml: text.replacingOccurrences(of: "event3", with: "event9"), source: "pad.yml")
        XCTAssertTrue(elsewhere.deviceProblems(on: hardware).isEmpty)
    }

    func testEvdevAndForceFeedbackKeysAreCheckedWithTheirLocation() throws {
        let text = board("""
                compatible: evdev-ff
                device: /dev/js0
                device-name: Pad
                actuator-mode: voice-coil
                update-rate-hz: 5000
                gain: 2
                vib-rated-mv: 2000
            """, extra: """
            force-feedback:
              name: Pad
              bus-type: serial
              vendor: 70000
              effects-max: 200
              strong: nobody
            """)
        let problems = Board.problems(in: text).map(\.description)
        XCTAssertEqual(problems, [
            "pad.yml:7:5: actuators[0].device-name: give either 'device' or 'device-name', not both",
            "pad.yml:8:5: actuators[0].actuator-mode: an evdev-ff actuator is ERM (a rumble motor) or LRA (a vibra with a known resonance), not 'voice-coil'",
            "pad.yml:9:5: actuators[0].update-rate-hz: expected 1...1000 effect updates per second, not 5000.0",
            "pad.yml:10:5: actuators[0].gain: expected a gain in 0...1, not 2.0",
            "pad.yml:11:5: actuators[0].vib-rated-mv: 'vib-rated-mv' is for DRV260x chips; an evdev-ff actuator is driven through its input device's force feedback",
            "pad.yml:14:3: force-feedback.bus-type: expected bluetooth, host, usb, virtual or a BUS_* number, not 'serial'",
            "pad.yml:15:3: force-feedback.vendor: expected a 16-bit id (0...0xFFFF), not 70000",
            "pad.yml:16:3: force-feedback.effects-max: expected 1...96 effects (effect ids stay below FF_GAIN), not 200",
            "pad.yml:17:3: force-feedback.strong: no actuator named 'nobody' (defined: rumble)",
        ])
    }

    func testForceFeedbackSectionGivesTheDeviceIdentityAndLayout() throws {
        let board = try Board(contentsOf: ForceFeedbackRig.repository.appendingPathComponent("Boards/sim-dual-grips.yml"))
        XCTAssertEqual(board.forceFeedbackLayout, ForceFeedbackLayout(strong: "left", weak: "right"))
        let setup = board.forceFeedbackSetup
        XCTAssertEqual(setup.capabilities.effectSlots, 16)
        XCTAssertFalse(setup.name.isEmpty)
    }
}

extension Board {
    /// The problems of board YAML in memory, as `problems(inFileAt:)` gives them for a file.
    static func problems(in text: String) -> [BoardFileError] {
        do {
            return BoardRules(file: try BoardFile.parse(text, path: "pad.yml")).problems()
        } catch {
            return [error]
        }
    }
}
