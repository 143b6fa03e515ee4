import ActuatorHAL
import HardwareMocks
import XCTest
@testable import HapticRuntime

/// A fault on one of several actuators stays with it: the players using it end, the others play on
/// and the engine keeps running (`HapticEngine.handleFault`).
final class FaultIsolationTests: XCTestCase {
    func testAFaultOnOneActuatorEndsOnlyThePlayersUsingItAndTheOthersPlayOn() throws {
        let rig = try TwoChipRig()
        let onLeft = try rig.start(on: "left")
        let onRight = try rig.start(on: "right")
        let onBoth = try rig.start(on: nil)
        rig.run(until: 0.3)
        XCTAssertGreaterThan(rig.drive("left", at: 0.3), 0.5)
        XCTAssertGreaterThan(rig.drive("right", at: 0.3), 0.5)
        // The left chip stops acknowledging: a missing ACK is not retried, it is a fault.
        rig.injectNACK(on: "left")
        rig.run(until: 0.6)

        let report = try XCTUnwrap(rig.faults.values.first)
        XCTAssertEqual(rig.faults.values.count, 1)
        XCTAssertEqual(report.actuators, ["left"])
        XCTAssertEqual(report.outcome, .systemError, "power-cycled and re-initialised")
        XCTAssertTrue("\(report.fault)".contains("no device acknowledged"), "\(report.fault)")
        XCTAssertTrue(rig.stops.values.isEmpty, "the engine did not stop")
        XCTAssertTrue(rig.engine.isRunning)
        XCTAssertEqual(onLeft.ends.values.count, 1)
        XCTAssertEqual(onBoth.ends.values.count, 1, "a player on both ends on both")
        let ended = try XCTUnwrap(onLeft.ends.values.first ?? nil)
        XCTAssertTrue("\(ended)".hasPrefix("actuator left: "), "names the actuator: \(ended)")
        XCTAssertTrue(onRight.ends.values.isEmpty, "the right player plays on")
        XCTAssertEqual(rig.drive("left", at: 0.6), 0)
        rig.assertStoppedInStandby("left")
        XCTAssertGreaterThan(rig.drive("right", at: 0.6), 0.5)

        rig.run(until: 2)
        XCTAssertEqual(onRight.ends.values.count, 1)
        XCTAssertNil(onRight.ends.values.first ?? nil, "it played to its end")
        // The failed actuator plays the next content.
        _ = try rig.start(on: "left", at: 2.1)
        rig.run(until: 2.5)
        XCTAssertGreaterThan(rig.drive("left", at: 2.5), 0.5)
    }

    func testAPlayerLeavingAWorkingActuatorAfterAFaultStopsIt() throws {
        let rig = try TwoChipRig()
        let onBoth = try rig.start(on: nil)
        rig.run(until: 0.3)
        rig.injectNACK(on: "left")
        rig.run(until: 0.6)
        XCTAssertEqual(onBoth.ends.values.count, 1)
        XCTAssertEqual(rig.drive("right", at: 0.6), 0, "nothing else plays on the right: stopped")
        rig.assertStoppedInStandby("right")
        rig.assertStoppedInStandby("left")
        XCTAssertEqual(rig.faults.values.map(\.actuators), [["left"]])
        XCTAssertTrue(rig.stops.values.isEmpty)
    }

    func testAStuckBusOnOneActuatorSwitchesItOffAndTheOtherPlaysOn() throws {
        let rig = try TwoChipRig()
        _ = try rig.start(on: "left")
        let onRight = try rig.start(on: "right")
        rig.run(until: 0.3)
        rig.chips["left"]!.bus.isStuck = true
        rig.run(until: 0.8)
        XCTAssertEqual(rig.faults.values.map(\.outcome), [.deviceLost])
        XCTAssertFalse(rig.chips["left"]!.chip.isEnabled, "EN low: off whatever the bus does")
        XCTAssertEqual(rig.engine.actuatorStates["left"], .off)
        XCTAssertTrue(onRight.ends.values.isEmpty)
        XCTAssertGreaterThan(rig.drive("right", at: 0.8), 0.5)
        XCTAssertTrue(rig.stops.values.isEmpty)
    }
}

/// An engine on two simulated DRV2605L chips, `left` and `right`, each on a bus of its own, on
/// one virtual clock; handlers recorded.
private final class TwoChipRig {
    let clock = VirtualClock()
    let chips: [String: SimulatedBoard]
    let scheduler: DeadlineScheduler
    let engine: HapticEngine
    let faults = Collected<ActuatorFaultReport>()
    let stops = Collected<HapticEngine.StoppedReason>()

    /// A started player and its completions (nil: played to its end).
    struct Started {
        let player: HapticAdvancedPatternPlayer
        let ends: Collected<(any Error)?>
    }

    init() throws {
        let names = ["left", "right"], clock = clock
        let boards = names.map { _ in SimulatedBoard(clock: clock) }
        chips = Dictionary(uniqueKeysWithValues: zip(names, boards))
        let actuators = zip(names, boards).map { name, board in
            EngineActuator(DRV2605Actuator(name: name, driver: DRV2605(bus: board.bus, enableLine: board.enableLine, clock: clock), configuration: engineTestLRA), name: name)
        }
        scheduler = DeadlineScheduler(clock: clock)
        engine = HapticEngine(actuators: actuators, clock: clock, scheduler: scheduler)
        let faults = faults, stops = stops
        engine.actuatorFaultHandler = { faults.append($0) }
        engine.stoppedHandler = { stops.append($0) }
        engine.resetHandler = { XCTFail("no engine reset") }
        try engine.start()
    }

    /// A one-second full-intensity buzz on `actuator` (nil: both), starting at `seconds`.
    func start(on actuator: String?, at seconds: Double = 0.1) throws -> Started {
        let player = try engine.makeAdvancedPlayer(with: TestPatterns.buzz(duration: 1), on: actuator)
        let ends = Collected<(any Error)?>()
        player.completionHandler = { ends.append($0) }
        try player.start(atTime: seconds)
        return Started(player: player, ends: ends)
    }

    func run(until seconds: Double) {
        scheduler.run(until: .at(seconds))
    }

    func drive(_ name: String, at seconds: Double) -> Double {
        chips[name]!.chip.drive.level(at: .at(seconds)).amplitude
    }

    /// The next transfer to `name`'s chip is not acknowledged.
    func injectNACK(on name: String) {
        chips[name]!.bus.injectError(.noAcknowledge(bus: "sim", address: SimulatedBoard.chipAddress), onTransfer: 1)
    }

    func assertStoppedInStandby(_ name: String, file: StaticString = #filePath, line: UInt = #line) {
        assertChipStoppedInStandby(chips[name]!.chip, file: file, line: line)
        XCTAssertEqual(engine.actuatorStates[name], .standby, file: file, line: line)
    }
}
