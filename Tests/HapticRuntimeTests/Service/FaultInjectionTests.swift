import ActuatorHAL
import BoardFiles
import Foundation
import HapticRuntime
import HardwareMocks
import SystemPackage
import XCTest

/// docs/faults.md, one test per row: each fault is injected on the simulated hardware of actuator
/// `a` of a service that also drives `b`, while both play. Each test checks the table's columns:
/// what the user sees (service events, the player's end, `lastFault`), what the actuator does
/// (stopped, standby or off), whether the access was retried, and that `b`'s player plays on
/// through the fault and the service goes on serving `b` afterwards.
final class FaultInjectionTests: XCTestCase {
    private var rig: FaultRig!

    override func tearDown() {
        rig?.service.shutDown()
        rig = nil
    }

    // MARK: Bus faults

    func testNACKMidPlayIsNotRetriedTheChipIsReinitialisedAndTheServiceGoesOn() throws {
        rig = try FaultRig()
        let (a, b) = try rig.playOnBoth()
        let bus = rig.chip("a").bus
        bus.injectError(.noAcknowledge(bus: bus.name, address: SimulatedBoard.chipAddress), onTransfer: 1)
        rig.run(for: .milliseconds(300))
        XCTAssertEqual(rig.failedTransfers("a").count, 1, "a missing ACK is not retried")
        rig.assertFault(reason: "system error", mentions: "no device acknowledged")
        XCTAssertEqual(rig.endReason(of: a), "actuator-fault")
        rig.assertPlaysOn(b, on: "b")
        rig.assertStoppedInStandby("a")
        try rig.assertServes("b")
        try rig.assertServes("a")
    }

    func testEIOOnTheNthTransferIsRetriedAndThePatternPlaysOn() throws {
        rig = try FaultRig()
        let (a, b) = try rig.playOnBoth()
        let bus = rig.chip("a").bus
        let eio = I2CError.transfer(bus: bus.name, address: SimulatedBoard.chipAddress, errno: .ioError)
        bus.injectError(eio, onTransfer: 3)
        rig.run(for: .seconds(2))
        let failed = try XCTUnwrap(rig.failedTransfers("a").first)
        XCTAssertEqual(failed.error, eio)
        let retry = try XCTUnwrap(bus.log.first { $0.time > failed.time })
        XCTAssertEqual(retry.operations, failed.operations, "the same access again")
        XCTAssertNil(retry.error)
        XCTAssertEqual(retry.time - failed.time, DRV2605RetryPolicy().backoff + bus.wireTime(of: failed.operations))
        XCTAssertEqual(rig.faults.count, 0, "the user sees nothing")
        XCTAssertEqual(rig.endReason(of: a), "finished")
        XCTAssertEqual(rig.endReason(of: b), "finished")
        rig.run(for: .seconds(2))
        rig.assertStoppedInStandby("a")

        // EIO on every transfer: three retries, then the fault; the chip cannot be re-initialised.
        let c = try rig.play(on: "a", seconds: 1)
        rig.run(for: .milliseconds(300))
        let before = rig.failedTransfers("a").count
        bus.injectError(eio, onTransfer: 1, times: 100_000)
        rig.run(for: .milliseconds(300))
        XCTAssertGreaterThanOrEqual(rig.failedTransfers("a").count - before, 4)
        rig.assertFault(reason: "device lost", mentions: "after 4 attempts")
        XCTAssertEqual(rig.endReason(of: c), "actuator-fault")
        rig.assertOff("a")
        try rig.assertServes("b")
    }

    func testEAGAINAndETIMEDOUTAreRetriedAndThePatternPlaysOn() throws {
        rig = try FaultRig()
        let (a, _) = try rig.playOnBoth()
        let bus = rig.chip("a").bus
        bus.injectError(.transfer(bus: bus.name, address: SimulatedBoard.chipAddress, errno: .resourceTemporarilyUnavailable), onTransfer: 2)
        bus.injectError(.transfer(bus: bus.name, address: SimulatedBoard.chipAddress, errno: .timedOut), onTransfer: 3)
        rig.run(for: .seconds(2))
        let failed = rig.failedTransfers("a")
        XCTAssertEqual(failed.count, 2)
        XCTAssertEqual(failed.map(\.operations), [failed[0].operations, failed[0].operations], "the second failure is the first one's retry")
        XCTAssertEqual(rig.faults.count, 0)
        XCTAssertEqual(rig.endReason(of: a), "finished")
        rig.run(for: .seconds(2))
        rig.assertStoppedInStandby("a")
        try rig.assertServes("b")
    }

    func testDeviceGoneMidPlayWithENODEVOrENXIOLeavesItOffAndTheServiceGoesOn() throws {
        rig = try FaultRig()
        let playing = try rig.playOnBoth()
        var a = playing.a
        let bus = rig.chip("a").bus
        // The adapter went away (a USB-I2C bridge unplugged): i2c-dev answers ENODEV, not retried.
        bus.injectError(.transfer(bus: bus.name, address: SimulatedBoard.chipAddress, errno: .operationNotSupportedByDevice), onTransfer: 1, times: 100_000)
        rig.run(for: .milliseconds(300))
        rig.assertFault(reason: "device lost", mentions: "errno 19")
        XCTAssertEqual(rig.endReason(of: a), "actuator-fault")
        rig.assertPlaysOn(playing.b, on: "b")
        rig.assertOff("a")
        try rig.assertServes("b")
        // A request on the gone chip is taken, fails the same way at once and ends: no hang.
        rig.markEvents()
        let again = try rig.play(on: "a", seconds: 0.2)
        rig.run(for: .milliseconds(100))
        rig.assertFault(reason: "device lost", mentions: "errno 19")
        XCTAssertEqual(rig.endReason(of: again), "actuator-fault")

        // The chip left the bus (ENXIO from most adapters: no ACK at its address).
        rig.chip("a").bus.clearInjectedFaults()
        try rig.assertServes("a")
        a = try rig.play(on: "a", seconds: 1)
        rig.run(for: .milliseconds(300))
        rig.markEvents()
        rig.chip("a").bus.detach(at: SimulatedBoard.chipAddress)
        rig.run(for: .milliseconds(300))
        rig.assertFault(reason: "device lost", mentions: "no device acknowledged")
        XCTAssertEqual(rig.endReason(of: a), "actuator-fault")
        XCTAssertFalse(rig.chip("a").enableLine.level.isHigh, "EN dropped")
        try rig.assertServes("b")
    }

    func testStuckBusIsRetriedThenTheChipIsSwitchedOffByENAndTheServiceGoesOn() throws {
        rig = try FaultRig()
        let (a, b) = try rig.playOnBoth()
        let bus = rig.chip("a").bus
        bus.isStuck = true
        let stuckAt = rig.clock.now
        rig.run(for: .milliseconds(500))
        let timeouts = rig.failedTransfers("a")
        XCTAssertGreaterThanOrEqual(timeouts.count, 4, "a timeout is retried")
        XCTAssertTrue(timeouts.allSatisfy { $0.error == .timeout(bus: bus.name, address: SimulatedBoard.chipAddress) })
        rig.assertFault(reason: "device lost", mentions: "timed out")
        XCTAssertEqual(rig.endReason(of: a), "actuator-fault")
        rig.assertPlaysOn(b, on: "b")
        rig.assertOff("a")
        XCTAssertEqual(rig.chip("a").chip.drive.level(at: rig.clock.now).amplitude, 0)
        // The next status poll finds the bus stuck once its read has timed out through its
        // retries; EN then drops at once and stays low: no stop is tried over the stuck bus, and no
        // re-initialisation raises EN again. (Before, the stop and the stop before EN low timed out
        // in turn: EN went low after 400 ms, rose for a re-initialisation and fell again at 500.)
        let changes = rig.chip("a").enableLine.history.filter { $0.time >= stuckAt }
        XCTAssertEqual(changes.map(\.level), [.low], "EN dropped once")
        let enLow = try XCTUnwrap(changes.first).time
        let retries = DRV2605RetryPolicy().retries
        XCTAssertLessThanOrEqual(enLow - stuckAt, EngineActuator.defaultStatusPollInterval + bus.stuckTimeout * (retries + 1) + DRV2605RetryPolicy().backoff * retries)
        try rig.assertServes("b")
    }

    // MARK: Chip faults

    func testAChipResetMidPlayIsDetectedAndTheChipReinitialised() throws {
        rig = try FaultRig()
        let (a, b) = try rig.playOnBoth()
        let chip = rig.chip("a").chip
        let configured = chip.register(DRV2605Register.ratedVoltage.rawValue)
        XCTAssertNotEqual(configured, 0x3E)
        chip.injectPowerOnReset()
        let resetAt = rig.clock.now
        XCTAssertEqual(chip.register(DRV2605Register.ratedVoltage.rawValue), 0x3E, "back at the reset value")
        rig.run(for: .milliseconds(300))
        rig.assertFault(reason: "system error", mentions: "registers-reset")
        XCTAssertEqual(rig.endReason(of: a), "actuator-fault")
        rig.assertPlaysOn(b, on: "b")
        let rewritten = try XCTUnwrap(rig.chip("a").bus.log.first {
            $0.time > resetAt && $0.error == nil && $0.operations == [.write([DRV2605Register.ratedVoltage.rawValue, configured])]
        })
        XCTAssertLessThanOrEqual(rewritten.time - resetAt, EngineActuator.defaultStatusPollInterval + .milliseconds(5), "seen by the next status poll")
        XCTAssertEqual(chip.register(DRV2605Register.ratedVoltage.rawValue), configured, "configuration written again")
        XCTAssertEqual(rig.failedTransfers("a").count, 0)
        rig.assertStoppedInStandby("a")
        try rig.assertServes("a")
        try rig.assertServes("b")
    }

    func testOverTemperatureStopsTheChipReportsItAndTheServiceGoesOn() throws {
        rig = try FaultRig()
        let (a, b) = try rig.playOnBoth()
        rig.chip("a").chip.injectOverTemperature()
        rig.run(for: .milliseconds(300))
        rig.assertFault(reason: "system error", mentions: "over-temperature")
        XCTAssertEqual(rig.endReason(of: a), "actuator-fault")
        rig.assertPlaysOn(b, on: "b")
        rig.assertStoppedInStandby("a")
        try rig.assertServes("b")
        try rig.assertServes("a")
    }

    func testOverCurrentStopsTheChipThePowerCycleClearsItAndTheServiceGoesOn() throws {
        rig = try FaultRig()
        let (a, b) = try rig.playOnBoth()
        let chip = rig.chip("a").chip
        chip.injectOverCurrent()
        rig.run(for: .milliseconds(300))
        rig.assertFault(reason: "system error", mentions: "over-current")
        XCTAssertEqual(rig.endReason(of: a), "actuator-fault")
        rig.assertPlaysOn(b, on: "b")
        XCTAssertEqual(chip.register(DRV2605Register.status.rawValue) & 0x01, 0, "OC_DETECT latched until EN low: the power cycle cleared it")
        XCTAssertTrue(rig.chip("a").enableLine.history.contains { $0.level == .low }, "power-cycled")
        rig.assertStoppedInStandby("a")
        try rig.assertServes("b")
        try rig.assertServes("a")
    }

    func testCalibrationFailureIsATypedErrorTheChipEndsInStandbyAndNothingIsKept() throws {
        rig = try FaultRig()
        let a = try XCTUnwrap(rig.service.board.actuator(named: "a")?.drv2605)
        let b = try XCTUnwrap(rig.service.board.actuator(named: "b")?.drv2605)
        rig.chip("a").chip.calibrationOutcome = .failsDiagnostic
        XCTAssertThrowsError(try a.calibrate()) { error in
            guard case .calibrationFailed? = error as? DRV2605Error else { return XCTFail("\(error)") }
            XCTAssertTrue("\(error)".contains("check the actuator wiring"), "\(error)")
        }
        XCTAssertNil(a.calibration, "nothing kept")
        XCTAssertEqual(a.powerState, .standby)
        XCTAssertEqual(rig.chip("a").chip.register(DRV2605Register.mode.rawValue) & 0x40, 0x40)
        XCTAssertEqual(rig.chip("a").chip.register(DRV2605Register.go.rawValue), 0)
        // A calibration that never ends is bounded by AUTO_CAL_TIME, then the chip is reset and configured again.
        rig.chip("a").chip.calibrationOutcome = .neverFinishes
        XCTAssertThrowsError(try a.calibrate()) { error in
            guard case .calibrationTimeout? = error as? DRV2605Error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(a.powerState, .standby)
        XCTAssertNotEqual(rig.chip("a").chip.register(DRV2605Register.ratedVoltage.rawValue), 0x3E, "configured again after the reset")
        XCTAssertNoThrow(try b.calibrate(), "the other chip calibrates")
        try rig.assertServes("b")
        try rig.assertServes("a")
    }

    // MARK: EN line

    func testAnENLineLostMidPlayIsSeenAtTheNextPowerChangeTheBusStillStopsTheChip() throws {
        rig = try FaultRig()
        let (a, _) = try rig.playOnBoth()
        let line = rig.chip("a").enableLine
        // The GPIO expander carrying EN went away: the line stays high and cannot be driven.
        line.injectedFailure = .operationNotSupportedByDevice
        rig.run(for: .seconds(2))
        XCTAssertEqual(rig.endReason(of: a), "finished", "nothing needs EN while playing")
        rig.run(for: .seconds(2))
        XCTAssertEqual(rig.faults.count, 0)
        rig.assertStoppedInStandby("a")
        // The off timeout (30 s on this board) drops EN: that fails, and the chip stays stopped in
        // standby over the bus.
        rig.run(for: .seconds(31))
        rig.assertFault(reason: "device lost", mentions: "EN line")
        rig.assertStoppedInStandby("a", en: .high, state: .standby)
        try rig.assertServes("b")
    }

    // MARK: Sound device

    func testAnALSAXrunIsRecoveredAndTheDriveGoesOn() throws {
        rig = try FaultRig(yaml: FaultRig.coilAndChip)
        let coil = try rig.play(on: "coil", seconds: 1)
        rig.run(for: .milliseconds(300))
        // The timing thread stalls for 80 ms: the device plays out everything queued (an underrun).
        rig.clock.advance(by: .milliseconds(80))
        rig.run(for: .seconds(1))
        let sink = try XCTUnwrap(rig.hardware.pcmSinks["coil"]?.last)
        let underrun = try XCTUnwrap(sink.underruns.first)
        let restarted = try XCTUnwrap(underrun.restarted, "the stream started again")
        XCTAssertLessThan(restarted - underrun.audioEnded, .milliseconds(100))
        XCTAssertEqual(rig.faults.count, 0, "not a fault")
        XCTAssertEqual(rig.endReason(of: coil), "finished")
        let drive = sink.channel(0)
        let lastDriven = try XCTUnwrap(drive.indices.last { abs(drive[$0]) > 0.05 })
        XCTAssertGreaterThan(try XCTUnwrap(sink.playTime(ofFrame: lastDriven)), restarted, "drive after the restart")
        try rig.assertServes("b")
    }

    func testASoundDeviceUnpluggedMidPlayEndsThePlayerAndIsReopenedWhenBack() throws {
        rig = try FaultRig(yaml: FaultRig.coilAndChip)
        let coil = try rig.play(on: "coil", seconds: 1)
        rig.run(for: .milliseconds(300))
        XCTAssertEqual(rig.hardware.pcmSinks["coil"]?.count, 1)
        rig.hardware.unplugPCM(of: "coil")
        rig.run(for: .milliseconds(300))
        rig.assertFault(reason: "device lost", mentions: "No such device", on: "coil")
        XCTAssertEqual(rig.endReason(of: coil), "actuator-fault")
        XCTAssertEqual(rig.service.engine.actuatorStates["coil"], .off, "the device is let go")
        try rig.assertServes("b")
        // Plugged in again: the next request opens it afresh.
        rig.hardware.plugInPCM(of: "coil")
        _ = try rig.play(on: "coil", seconds: 0.2)
        rig.run(for: .milliseconds(500))
        XCTAssertEqual(rig.hardware.pcmSinks["coil"]?.count, 2, "opened again")
        XCTAssertGreaterThan(rig.hardware.pcmSinks["coil"]?.last?.channel(0).map(abs).max() ?? 0, 0.05, "and driven")
    }
}

/// A service on a simulated board of two chips, `a` and `b`, each on a bus of its own, on virtual
/// time. `ReadyPlayersTests` uses it too.
final class FaultRig {
    static let twoChips = """
        board: fault-rig
        buses:
          - name: bus-a
            device: sim
            clock-frequency: 400000
          - name: bus-b
            device: sim
            clock-frequency: 400000
        actuators:
        \(chip("a", bus: "bus-a"))
        \(chip("b", bus: "bus-b"))
        power:
          standby-timeout-ms: 2000
          off-timeout-ms: 30000
        """

    /// A voice coil driven as audio beside chip `b`.
    static let coilAndChip = """
        board: fault-rig-audio
        buses:
          - name: bus-b
            device: sim
            clock-frequency: 400000
        actuators:
          - name: coil
            compatible: pcm-actuator
            device: sim
            channels: 2
            channel-map: [1, 2]
            sample-rate: 48000
            period-frames: 128
            actuator-mode: voice-coil
            resonant-frequency-hz: 160
            max-amplitude: 0.8
        \(chip("b", bus: "bus-b"))
        power:
          standby-timeout-ms: 2000
          off-timeout-ms: 30000
        """

    private static func chip(_ name: String, bus: String) -> String {
        """
          - name: \(name)
            compatible: ti,drv2605l
            bus: \(bus)
            reg: 0x5a
            enable-gpios: EN-\(name)
            actuator-mode: LRA
            loop: closed
            vib-rated-mv: 2000
            vib-overdrive-mv: 2800
            resonant-frequency-hz: 175
            library-sel: 6
        """
    }

    let hardware = SimulatedBoardHardware()
    let service: HapticService
    private let log = FaultEventLog()
    private let client = ServiceClient(id: 1)

    var clock: VirtualClock { hardware.virtualClock }

    init(yaml: String = FaultRig.twoChips) throws {
        let board = try Board(yaml: yaml, source: "fault-rig.yml").open(on: hardware)
        service = HapticService(board: board, scheduler: DeadlineScheduler(clock: hardware.virtualClock), library: ContentLibrary(folder: FileManager.default.temporaryDirectory))
        let log = self.log
        _ = service.subscribe { log.append($0) }
        try service.start(timing: nil)
    }

    func chip(_ name: String) -> SimulatedBoard {
        hardware.chips[name]!
    }

    func run(for duration: Duration) {
        service.scheduler.run(until: clock.now + duration)
    }

    /// Starts a loud continuous pattern of `seconds` on `actuator`; returns the player's id.
    func play(on actuator: String, seconds: Double) throws -> Int {
        let request = ServicePlayRequest(content: .notation("continuous \(seconds)s:\n  intensity: loud"), actuators: [actuator])
        return try XCTUnwrap(service.play(request, from: client).player).id
    }

    /// One-second patterns on `a` and `b`, both driving when this returns.
    func playOnBoth() throws -> (a: Int, b: Int) {
        let ids = (try play(on: "a", seconds: 1), try play(on: "b", seconds: 1))
        run(for: .milliseconds(300))
        for name in ["a", "b"] {
            XCTAssertGreaterThan(chip(name).chip.drive.level(at: clock.now).amplitude, 0.5, "\(name) drives before the fault")
        }
        return ids
    }

    /// Transfers to `actuator`'s chip that failed.
    func failedTransfers(_ actuator: String) -> [SimulatedI2CBus.LoggedTransaction] {
        chip(actuator).bus.log.filter { $0.error != nil }
    }

    /// Events before this many are left out of `faults`.
    private var mark = 0

    /// From now on `faults` counts only faults after this call.
    func markEvents() {
        mark = log.all.count
    }

    /// Fault events since the last `markEvents()`.
    var faults: [(reason: String, message: String, actuators: [String]?)] {
        log.all.dropFirst(mark).compactMap { if case .fault(let reason, let message, let actuators) = $0 { (reason, message, actuators) } else { nil } }
    }

    func endReason(of id: Int) -> String? {
        log.all.lazy.compactMap { if case .playerEnded(id, let reason) = $0 { reason.rawValue } else { nil } }.first
    }

    /// One fault event on `actuator` alone (the engine played on elsewhere), with `reason`, whose
    /// message contains `text`; the status reports it too.
    func assertFault(reason: String, mentions text: String, on actuator: String = "a", file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(faults.map(\.reason), [reason], file: file, line: line)
        XCTAssertEqual(faults.map(\.actuators), [[actuator]], file: file, line: line)
        XCTAssertTrue(faults.first?.message.contains(text) ?? false, "\(faults)", file: file, line: line)
        XCTAssertEqual(service.status.lastFault, faults.last?.message, file: file, line: line)
    }

    /// Player `id` on `actuator` plays through the fault on another actuator: still playing and
    /// driving now, then it ends `finished`.
    func assertPlaysOn(_ id: Int, on actuator: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertNil(endReason(of: id), "still playing", file: file, line: line)
        XCTAssertGreaterThan(chip(actuator).chip.drive.level(at: clock.now).amplitude, 0.5, "\(actuator) drives on", file: file, line: line)
        run(for: .seconds(1))
        XCTAssertEqual(endReason(of: id), "finished", file: file, line: line)
    }

    /// Chip stopped (GO 0, RTP 0, no drive) in standby (MODE.STANDBY), EN as given.
    func assertStoppedInStandby(_ name: String, en: LineLevel = .high, state: PowerState = .standby, file: StaticString = #filePath, line: UInt = #line) {
        let board = chip(name)
        XCTAssertEqual(board.enableLine.level, en, "EN", file: file, line: line)
        XCTAssertEqual(board.chip.register(DRV2605Register.mode.rawValue) & 0x40, 0x40, "MODE.STANDBY", file: file, line: line)
        XCTAssertEqual(board.chip.register(DRV2605Register.go.rawValue), 0, "GO", file: file, line: line)
        XCTAssertEqual(board.chip.register(DRV2605Register.realtimeInput.rawValue), 0, "RTP_INPUT", file: file, line: line)
        XCTAssertEqual(board.chip.drive.level(at: clock.now).amplitude, 0, "drive", file: file, line: line)
        XCTAssertEqual(service.engine.actuatorStates[name], state, file: file, line: line)
    }

    /// EN low: the chip's output stage is off whatever its registers say.
    func assertOff(_ name: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(chip(name).enableLine.level, .low, "EN", file: file, line: line)
        XCTAssertEqual(chip(name).chip.drive.level(at: clock.now).amplitude, 0, "drive", file: file, line: line)
        XCTAssertEqual(service.engine.actuatorStates[name], .off, file: file, line: line)
    }

    /// A new request on `name` plays to its end and drives the chip.
    func assertServes(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let id = try play(on: name, seconds: 0.2)
        let started = clock.now
        run(for: .milliseconds(600))
        XCTAssertEqual(endReason(of: id), "finished", "\(name) served", file: file, line: line)
        if let board = hardware.chips[name] {
            // From `started` on: a chip already prepared drives at the request's own instant.
            let driven = board.chip.drive.changes.contains { $0.time >= started && $0.amplitude > 0.5 }
            XCTAssertTrue(driven, "\(name) drove", file: file, line: line)
        }
    }
}

private final class FaultEventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [ServiceEvent] = []

    func append(_ event: ServiceEvent) {
        lock.withLock { events.append(event) }
    }

    var all: [ServiceEvent] { lock.withLock { events } }
}
