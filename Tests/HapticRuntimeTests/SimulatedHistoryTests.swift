import ActuatorHAL
import HardwareMocks
import XCTest
@testable import HapticRuntime

/// The simulated board keeps every transaction for tests; a long run (`serve`, `rumble`,
/// `buttons` on `sim`) keeps only the newest, or it grows with every request.
final class SimulatedHistoryTests: XCTestCase {
    func testAHistoryLimitBoundsEveryChipsLogsAndTimelines() throws {
        let hardware = SimulatedBoardHardware()
        let board = try Board.sim.open(on: hardware)
        defer { board.close() }
        let actuator = try XCTUnwrap(board.actuators.first?.drv2605)
        let chip = try XCTUnwrap(hardware.chips[actuator.name])
        func exercise(_ times: Int) throws {
            for index in 0..<times {
                try actuator.driver.enable()
                try actuator.driver.setMode(.realtimePlayback, standby: false)
                try actuator.driver.writeRegister(.realtimeInput, UInt8(index % 2 == 0 ? 0x7F : 0x20))
                try actuator.driver.disable()
                hardware.virtualClock.advance(by: .milliseconds(1))
            }
        }
        try exercise(100)
        XCTAssertGreaterThanOrEqual(chip.bus.log.count, 200, "everything is kept by default")
        hardware.historyLimit = 16
        nonisolated(unsafe) var newest: SimulatedI2CBus.LoggedTransaction?
        chip.bus.transactionObserver = { newest = $0 }
        try exercise(1_000)
        XCTAssertLessThanOrEqual(chip.bus.log.count, 32)
        XCTAssertLessThanOrEqual(chip.enableLine.history.count, 32)
        XCTAssertLessThanOrEqual(chip.chip.drive.changes.count, 32)
        XCTAssertEqual(chip.bus.log.last, newest, "the newest are the ones kept")
    }

    func testAHistoryLimitBoundsSimulatedSoundDevicesAndHowManyAreKept() throws {
        let hardware = SimulatedBoardHardware()
        let format = PCMFormat(sampleRate: 48_000, channels: 2, periodFrames: 128)
        let first = try hardware.openPCM(device: "sim", format: format, for: "coil") as? PCMCaptureSink
        XCTAssertNil(first?.captureLimit, "everything is kept by default")
        hardware.historyLimit = 16
        XCTAssertEqual(first?.captureLimit, 16 * 128, "devices already open are bounded too")
        for _ in 0..<10 { _ = try hardware.openPCM(device: "sim", format: format, for: "coil") }
        let opened = try XCTUnwrap(hardware.pcmSinks["coil"])
        XCTAssertEqual(opened.count, 4, "a PCM actuator opens its device at every wake: only the newest are kept")
        XCTAssertTrue(opened.allSatisfy { $0.captureLimit == 16 * 128 })
    }

    func testAHistoryLimitBoundsForceFeedbackDevicesAndTheirRecorders() throws {
        let hardware = SimulatedBoardHardware()
        let standIn = hardware.forceFeedbackStandIn(for: "main")
        let recorder = try XCTUnwrap(hardware.forceFeedbackRecorders["main"])
        var pad = ForceFeedbackDeviceSetup(name: "pad")
        pad.keys = [0x130]
        let made = try XCTUnwrap(hardware.createForceFeedbackDevice(pad) as? SimulatedForceFeedbackDevice)
        let client = standIn.connect()
        let slot = try client.upload(ForceFeedbackEffect(kind: .rumble(strong: 0x8000, weak: 0), length: 100))
        func exercise(_ times: Int) throws {
            for index in 0..<times { try client.play(effectID: slot, count: Int32(index % 2)) }
            for _ in 0..<times { try made.emit(.key(0x130, pressed: true)) }
        }
        try exercise(100)
        XCTAssertGreaterThanOrEqual(recorder.entries.count, 101, "everything is kept by default")
        XCTAssertGreaterThanOrEqual(made.emittedEvents.count, 100)
        hardware.historyLimit = 16
        XCTAssertEqual(standIn.historyLimit, 16, "devices already made are bounded too")
        XCTAssertEqual(made.historyLimit, 16)
        try exercise(1_000)
        XCTAssertLessThanOrEqual(recorder.entries.count, 32)
        XCTAssertLessThanOrEqual(standIn.deliveredRequests.count, 32)
        XCTAssertLessThanOrEqual(made.emittedEvents.count, 32)
        XCTAssertEqual(recorder.plays.last?.count, 1, "the newest are the ones kept")
        let later = try XCTUnwrap(hardware.createForceFeedbackDevice(ForceFeedbackDeviceSetup(name: "second pad")) as? SimulatedForceFeedbackDevice)
        XCTAssertEqual(later.historyLimit, 16, "and devices made afterwards")
    }
}
