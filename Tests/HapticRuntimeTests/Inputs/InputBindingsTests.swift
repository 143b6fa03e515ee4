import ActuatorHAL
import Foundation
import HapticRuntime
import HardwareMocks
import XCTest

/// Every binding kind, polyphony, retrigger and holds, through the service on the simulated
/// board, on virtual time.
final class InputBindingsTests: XCTestCase {
    private var hardware: SimulatedBoardHardware!
    private var service: HapticService!
    private var bindings: InputBindings!
    private var events: ServiceEventLog!
    private var clock: VirtualClock { hardware.virtualClock }

    private static let buzz = try! ContentLoader.parse("continuous 0.2s:\n  intensity: loud", format: .notation, file: "buzz.hnl").pattern

    private func start(_ list: [InputBinding], limits: HapticService.Limits = .init()) throws {
        hardware = SimulatedBoardHardware()
        let board = try Board.sim.open(on: hardware)
        service = HapticService(board: board, scheduler: DeadlineScheduler(clock: hardware.virtualClock),
                                library: ContentLibrary(folder: FileManager.default.temporaryDirectory), limits: limits)
        events = ServiceEventLog()
        let log = events!
        _ = service.subscribe { log.append($0) }
        try service.start(timing: nil)
        bindings = InputBindings(service: service, bindings: list)
    }

    override func tearDown() {
        bindings?.stopAll()
        service?.shutDown()
    }

    private func run(for duration: Duration) {
        service.scheduler.run(until: clock.now + duration)
    }

    private func send(_ input: String, _ kind: InputEvent.Kind) {
        bindings.receive(InputEvent(input: input, kind: kind, timestamp: clock.now))
    }

    private var names: [String] { service.players.map(\.name) }

    func testAPressBindingPlaysItsEffectAndTheEventStreamShowsThePress() throws {
        try start([InputBinding(input: "select", trigger: .press, content: .effect(47))])
        send("select", .press)
        XCTAssertEqual(names, ["effect 47"])
        run(for: .milliseconds(5))
        XCTAssertEqual(service.counters.triggers, 1)
        XCTAssertEqual(events.inputs, ["select press 1"])
        send("select", .release)
        XCTAssertEqual(events.inputs, ["select press 1", "select release 0"], "a release with no binding plays nothing")
    }

    func testAReleaseBindingFiresOnReleaseOnly() throws {
        try start([InputBinding(input: "select", trigger: .release, content: .feedback(.impact(.light), intensity: 1))])
        send("select", .press)
        XCTAssertEqual(names, [])
        send("select", .release)
        XCTAssertEqual(names, ["feedback"])
    }

    func testAHoldFiresAfterItsDelayAndRepeatsUntilRelease() throws {
        try start([InputBinding(input: "select", trigger: .hold(after: .milliseconds(500), repeatEvery: .milliseconds(200)), content: .effect(1))])
        send("select", .press)
        run(for: .milliseconds(499))
        XCTAssertEqual(service.counters.triggers, 0, "not yet held long enough")
        run(for: .milliseconds(2))
        XCTAssertEqual(service.counters.triggers, 1)
        run(for: .milliseconds(400))
        XCTAssertEqual(service.counters.triggers, 3, "repeats at 700 and 900 ms")
        send("select", .release)
        run(for: .seconds(1))
        XCTAssertEqual(service.counters.triggers, 3, "nothing after the release")
    }

    func testAHoldReleasedEarlyNeverFires() throws {
        try start([InputBinding(input: "select", trigger: .hold(after: .milliseconds(500), repeatEvery: nil), content: .effect(1))])
        send("select", .press)
        run(for: .milliseconds(300))
        send("select", .release)
        run(for: .seconds(1))
        XCTAssertEqual(service.counters.triggers, 0)
    }

    func testARepeatingHoldStopsAtTheMaximumHold() throws {
        try start([InputBinding(input: "select", trigger: .hold(after: .milliseconds(100), repeatEvery: .milliseconds(100)), content: .effect(1),
                                maximumHold: .milliseconds(450))])
        send("select", .press)
        run(for: .seconds(2))
        XCTAssertEqual(service.counters.triggers, 4, "at 100, 200, 300 and 400 ms; the release edge never came")
    }

    func testAHeldBindingLoopsUntilReleaseThenPlaysItsTail() throws {
        try start([InputBinding(input: "trigger", trigger: .whileHeld(tail: .effect(2)), content: .notation(source: "buzz", Self.buzz))])
        send("trigger", .press)
        run(for: .seconds(1))
        XCTAssertEqual(names, ["notation"], "the 0.2 s buzz still loops after a second")
        let looping = try XCTUnwrap(service.players.first?.id)
        send("trigger", .release)
        XCTAssertEqual(names, ["effect 2"], "the loop stopped and the tail started at once, no silent gap")
        XCTAssertTrue(events.ended.contains("\(looping) stopped"))
        run(for: .seconds(1))
        XCTAssertEqual(names, [])
        let chip = hardware.chips["main"]!.chip
        XCTAssertEqual(chip.drive.changes.last?.amplitude ?? 0, 0, "the actuator ends stopped")
    }

    func testAHeldBindingWhoseReleaseIsLostEndsAtItsMaximumHold() throws {
        let reports = ReportLog()
        try start([InputBinding(input: "trigger", trigger: .whileHeld(tail: .effect(2)), content: .notation(source: "buzz", Self.buzz),
                                maximumHold: .seconds(3))])
        bindings.reportHandler = { @Sendable report in reports.append(report) }
        send("trigger", .press)
        run(for: .milliseconds(2_990))
        XCTAssertEqual(names, ["notation"])
        run(for: .milliseconds(20))
        XCTAssertEqual(names, ["effect 2"], "ended as if released, with its tail")
        XCTAssertTrue(reports.entries.last?.problems.first?.contains("maximum hold") ?? false)
        run(for: .seconds(1))
        XCTAssertEqual(names, [])
        XCTAssertEqual(hardware.chips["main"]!.chip.drive.changes.last?.amplitude ?? 0, 0)
    }

    func testPressesOnDifferentButtonsOverlapAndMix() throws {
        try start([
            InputBinding(input: "a", trigger: .press, content: .notation(source: "buzz", Self.buzz)),
            InputBinding(input: "b", trigger: .press, content: .effect(47)),
        ])
        send("a", .press)
        run(for: .milliseconds(50))
        send("b", .press)
        XCTAssertEqual(names.sorted(), ["effect 47", "notation"], "both play at once")
        XCTAssertEqual(service.counters.preemptions, 0)
    }

    func testARetriggeredButtonRestartsByDefault() throws {
        try start([InputBinding(input: "a", trigger: .press, content: .notation(source: "buzz", Self.buzz))])
        send("a", .press)
        let first = try XCTUnwrap(service.players.first?.id)
        run(for: .milliseconds(50))
        send("a", .press)
        XCTAssertEqual(service.players.count, 1)
        XCTAssertNotEqual(service.players.first?.id, first)
        XCTAssertTrue(events.ended.contains("\(first) stopped"))
    }

    /// A click retriggered while it plays stops it and starts again on a chip left ready: no
    /// standby and wake (MODE writes) between the two, each a bus write before the new click on a
    /// real bus. Standby still comes, by the idle timeouts, once nothing plays.
    func testARetriggerWhileItPlaysNeverPutsTheChipInStandbyBetween() throws {
        try start([InputBinding(input: "a", trigger: .press, content: .effect(1), actuators: ["main"])])
        send("a", .press)
        run(for: .milliseconds(20))
        XCTAssertEqual(service.players.count, 1, "a 60 ms click still plays")
        let chip = try XCTUnwrap(hardware.chips["main"])
        chip.bus.clearLog()
        send("a", .press)
        run(for: .milliseconds(1))
        let writes = chip.bus.log.flatMap { entry in entry.operations.compactMap { operation -> [UInt8]? in
            if case .write(let bytes) = operation, bytes.count == 2 { bytes } else { nil }
        } }
        XCTAssertEqual(writes.first, [DRV2605Register.go.rawValue, 0], "the playing click stopped first: \(writes)")
        XCTAssertEqual(writes.last, [DRV2605Register.go.rawValue, 1], "the new click started: \(writes)")
        XCTAssertFalse(writes.contains { $0[0] == DRV2605Register.mode.rawValue }, "no standby and wake between: \(writes)")
        run(for: .seconds(5))
        assertChipStoppedInStandby(chip.chip)
    }

    func testARetriggeredLayeringButtonPlaysOnTop() throws {
        try start([InputBinding(input: "a", trigger: .press, content: .notation(source: "buzz", Self.buzz), retrigger: .layer)])
        send("a", .press)
        run(for: .milliseconds(50))
        send("a", .press)
        XCTAssertEqual(service.players.count, 2)
    }

    func testAHigherPriorityBindingPreemptsALowerOne() throws {
        try start([
            InputBinding(input: "a", trigger: .press, content: .notation(source: "buzz", Self.buzz)),
            InputBinding(input: "alarm", trigger: .press, content: .effect(47), priority: 5),
        ])
        send("a", .press)
        send("alarm", .press)
        XCTAssertEqual(names, ["effect 47"])
        XCTAssertEqual(service.counters.preemptions, 1)
    }

    func testEncoderStepsFireByDirection() throws {
        try start([
            InputBinding(input: "knob", trigger: .step(direction: 1), content: .effect(10)),
            InputBinding(input: "knob", trigger: .step(direction: -1), content: .effect(11)),
            InputBinding(input: "knob", trigger: .step(direction: nil), content: .effect(12), retrigger: .layer),
        ])
        send("knob", .step(1))
        XCTAssertEqual(names.sorted(), ["effect 10", "effect 12"])
        run(for: .seconds(1))
        send("knob", .step(-1))
        XCTAssertEqual(names.sorted(), ["effect 11", "effect 12"])
    }

    func testAFloodOfPressesIsCappedByTheService() throws {
        var limits = HapticService.Limits()
        limits.playersPerActuator = 4
        try start([InputBinding(input: "a", trigger: .press, content: .notation(source: "buzz", Self.buzz), retrigger: .layer)], limits: limits)
        let reports = ReportLog()
        bindings.reportHandler = { @Sendable report in reports.append(report) }
        for _ in 0..<100 { send("a", .press) }
        XCTAssertEqual(service.players.count, 4, "never more players than the limit")
        XCTAssertEqual(reports.entries.filter { !$0.problems.isEmpty }.count, 96)
        run(for: .seconds(1))
        XCTAssertEqual(service.players.count, 0)
    }
}

final class ServiceEventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [ServiceEvent] = []
    func append(_ event: ServiceEvent) { lock.lock(); stored.append(event); lock.unlock() }
    var all: [ServiceEvent] { lock.lock(); defer { lock.unlock() }; return stored }
    /// `select press 1`: input, kind, players started.
    var inputs: [String] {
        all.compactMap { if case .input(let input, let kind, _, _, let players) = $0 { "\(input) \(kind) \(players.count)" } else { nil } }
    }
    var ended: [String] {
        all.compactMap { if case .playerEnded(let id, let reason) = $0 { "\(id) \(reason.rawValue)" } else { nil } }
    }
}

final class ReportLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [InputBindings.Report] = []
    func append(_ report: InputBindings.Report) { lock.lock(); stored.append(report); lock.unlock() }
    var entries: [InputBindings.Report] { lock.lock(); defer { lock.unlock() }; return stored }
}
