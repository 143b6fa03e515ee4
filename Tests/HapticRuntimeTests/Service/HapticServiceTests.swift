import ActuatorHAL
import Foundation
import HardwareMocks
import XCTest
@testable import HapticRuntime

/// The service's rules on the simulated board, on virtual time.
final class HapticServiceTests: XCTestCase {
    private var hardware: SimulatedBoardHardware!
    private var service: HapticService!
    private var events: EventLog!
    private let kiosk = ServiceClient(id: 1)
    private let game = ServiceClient(id: 2)

    private var clock: VirtualClock { hardware.virtualClock }
    private var chip: DRV2605Model { hardware.chips["main"]!.chip }

    private func start(library: ContentLibrary? = nil, theme: FeedbackTheme? = nil, limits: HapticService.Limits = .init()) throws {
        hardware = SimulatedBoardHardware()
        let board = try Board.sim.open(on: hardware)
        service = HapticService(
            board: board, scheduler: DeadlineScheduler(clock: hardware.virtualClock),
            library: library ?? ContentLibrary(folder: FileManager.default.temporaryDirectory), theme: theme, limits: limits
        )
        events = EventLog()
        let log = events!
        _ = service.subscribe { log.append($0) }
        try service.start(timing: nil)
    }

    override func tearDown() {
        service?.shutDown()
    }

    private func run(for duration: Duration) {
        service.scheduler.run(until: clock.now + duration)
    }

    private func notation(_ text: String, priority: Int = 0, outlives: Bool = false) -> ServicePlayRequest {
        ServicePlayRequest(content: .notation(text), priority: priority, outlivesClient: outlives)
    }

    private func refusal(_ body: () throws -> Any) -> ServiceError.Code? {
        do {
            _ = try body()
            return nil
        } catch {
            return (error as? ServiceError)?.code
        }
    }

    func testStartUpStopsWhatAPreviousProcessLeftDriving() throws {
        // A chip left in RTP mode at full drive, as a process killed mid-pattern leaves it.
        hardware = SimulatedBoardHardware()
        let board = try Board.sim.open(on: hardware)
        let chip = try XCTUnwrap(hardware.chips["main"])
        try chip.enableLine.set(.high)
        clock.advance(by: .milliseconds(1))
        try chip.bus.write(address: SimulatedBoard.chipAddress, [DRV2605Register.mode.rawValue, 0x05])
        try chip.bus.write(address: SimulatedBoard.chipAddress, [DRV2605Register.realtimeInput.rawValue, 0x7F])
        XCTAssertNotEqual(chip.chip.drive.changes.last?.amplitude, 0)
        service = HapticService(board: board, scheduler: DeadlineScheduler(clock: clock), library: ContentLibrary(folder: FileManager.default.temporaryDirectory))
        try service.start(timing: nil)
        XCTAssertEqual(chip.chip.register(DRV2605Register.mode.rawValue) & 0x40, 0x40, "standby before serving")
        XCTAssertEqual(chip.chip.drive.changes.last?.amplitude, 0)
    }

    func testAPlayerPlaysToItsEndAndTheEventsSaySo() throws {
        try start()
        let started = try service.play(notation("loud sharp\n. 0.1s\ncontinuous 0.2s:\n  intensity: loud"), from: kiosk)
        let player = try XCTUnwrap(started.player)
        XCTAssertEqual(player.actuators, ["main"])
        XCTAssertGreaterThan(player.duration, 0.25)
        XCTAssertEqual(service.players.map(\.id), [player.id])
        run(for: .seconds(1))
        XCTAssertEqual(service.players, [])
        XCTAssertEqual(events.playerEvents, ["started \(player.id)", "ended \(player.id) finished"])
        XCTAssertGreaterThan(chip.drive.changes.filter { $0.amplitude > 0 }.count, 1, "the chip drove")
        XCTAssertEqual(service.counters.triggers, 1)
    }

    func testAHigherPriorityPreemptsALowerOneIsRefusedAndEqualOnesMix() throws {
        var limits = HapticService.Limits()
        limits.playersPerActuator = 2
        try start(limits: limits)
        let background = try XCTUnwrap(service.play(notation("continuous 5s:\n  intensity: loud"), from: kiosk).player)
        let alarm = try XCTUnwrap(service.play(notation("continuous 2s:\n  intensity: loud", priority: 5), from: game).player)
        XCTAssertTrue(events.playerEvents.contains("ended \(background.id) preempted"), "\(events.playerEvents)")
        XCTAssertEqual(refusal { try self.service.play(self.notation("loud sharp", priority: 1), from: self.kiosk) }, .busy)
        _ = try service.play(notation("soft dull", priority: 5), from: kiosk)
        XCTAssertEqual(refusal { try self.service.play(self.notation("loud sharp", priority: 5), from: self.kiosk) }, .tooManyPlayers)
        XCTAssertEqual(service.players.map(\.priority), [5, 5])
        XCTAssertEqual(service.counters.preemptions, 1)
        XCTAssertEqual(service.counters.refusals, ["busy": 1, "too-many-players": 1])
        try service.stop(player: alarm.id)
        XCTAssertEqual(refusal { try self.service.stop(player: alarm.id) }, .unknownPlayer)
    }

    /// A preempted player hands its actuator to the new one ready: stopped, not put in standby and
    /// woken again before the new player's first level. A client's stop puts it in standby at once.
    func testAPreemptionLeavesTheChipReadyAndAStopPutsItInStandby() throws {
        try start()
        _ = try service.play(notation("continuous 5s:\n  intensity: loud"), from: kiosk)
        run(for: .milliseconds(50))
        let bus = try XCTUnwrap(hardware.chips["main"]).bus
        bus.clearLog()
        let alarm = try XCTUnwrap(service.play(notation("continuous 2s:\n  intensity: loud", priority: 5), from: game).player)
        run(for: .milliseconds(5))
        let standbyWrites = bus.log.filter { entry in
            entry.operations.contains { if case .write(let bytes) = $0 { bytes.count == 2 && bytes[0] == DRV2605Register.mode.rawValue && bytes[1] & 0x40 != 0 } else { false } }
        }
        XCTAssertEqual(standbyWrites.count, 0, "no standby between the two players")
        XCTAssertGreaterThan(chip.drive.level(at: clock.now).amplitude, 0, "the alarm drives")
        bus.clearLog()
        try service.stop(player: alarm.id)
        XCTAssertEqual(chip.register(DRV2605Register.mode.rawValue) & 0x40, 0x40, "MODE.STANDBY at once after a stop")
        let registers = bus.log.flatMap { entry in entry.operations.compactMap { if case .write(let bytes) = $0 { bytes.first } else { nil } } }
        XCTAssertEqual(registers, [DRV2605Register.go.rawValue, DRV2605Register.realtimeInput.rawValue, DRV2605Register.mode.rawValue],
                       "the stop written once, then standby")
    }

    func testTriggersAreRateLimitedPerClientOnTheEngineClock() throws {
        var limits = HapticService.Limits()
        limits.triggersPerSecond = 10
        limits.triggerBurst = 3
        try start(limits: limits)
        for _ in 0..<3 { _ = try service.play(notation("soft sharp"), from: kiosk) }
        XCTAssertEqual(refusal { try self.service.play(self.notation("soft sharp"), from: self.kiosk) }, .rateLimited)
        _ = try service.play(notation("soft sharp"), from: game)
        run(for: .milliseconds(100))
        _ = try service.play(notation("soft sharp"), from: kiosk)
    }

    func testAClientsFeedbackStopsWhenItLeavesUnlessItAskedToOutliveIt() throws {
        try start()
        let bound = try XCTUnwrap(service.play(notation("continuous 3s:\n  intensity: loud"), from: kiosk).player)
        let outliving = try XCTUnwrap(service.play(notation("continuous 3s:\n  intensity: loud", outlives: true), from: kiosk).player)
        run(for: .milliseconds(200))
        service.clientLeft(kiosk)
        XCTAssertEqual(service.players.map(\.id), [outliving.id])
        XCTAssertTrue(events.playerEvents.contains("ended \(bound.id) client-left"))
        service.stopAll()
        run(for: .milliseconds(50))
        XCTAssertEqual(chip.drive.changes.last?.amplitude, 0)
    }

    func testBadContentIsLocatedAndLimitsAreEnforced() throws {
        var limits = HapticService.Limits()
        limits.maximumDuration = .seconds(2)
        limits.maximumEvents = 3
        try start(limits: limits)
        let ahap = #"{ "Pattern": [ { "Event": { "Time": "soon", "EventType": "HapticTransient" } } ] }"#
        do {
            _ = try service.play(ServicePlayRequest(content: .ahap(ahap)), from: kiosk)
            XCTFail("bad AHAP played")
        } catch {
            XCTAssertEqual(error.code, .invalidContent)
            XCTAssertEqual(error.pointer, "/Pattern/0/Event/Time")
            XCTAssertEqual(error.line, 1)
            XCTAssertEqual(error.column, 37)
            XCTAssertFalse(error.message.contains(FileManager.default.temporaryDirectory.path), error.message)
        }
        XCTAssertEqual(refusal { try self.service.play(self.notation("continuous 3s:\n  intensity: loud"), from: self.kiosk) }, .patternTooLong)
        XCTAssertEqual(refusal { try self.service.play(self.notation("soft sharp\nsoft sharp\nsoft sharp\nsoft sharp"), from: self.kiosk) }, .tooManyEvents)
        XCTAssertEqual(refusal { try self.service.play(ServicePlayRequest(content: .effect(124)), from: self.kiosk) }, .invalidRequest)
        XCTAssertEqual(refusal { try self.service.play(ServicePlayRequest(content: .notation("soft sharp"), actuators: ["left"]), from: self.kiosk) }, .unknownActuator)
        XCTAssertEqual(refusal { try self.service.play(ServicePlayRequest(content: .notation("soft sharp"), actuators: []), from: self.kiosk) }, .invalidRequest,
                       "a player on no actuator would never end")
        XCTAssertEqual(refusal { try self.service.play(ServicePlayRequest(content: .notation("soft sharp"), priority: 1_001), from: self.kiosk) }, .invalidRequest,
                       "the range HTTP's priority= has, whichever way the request comes")
        XCTAssertEqual(service.players, [])
    }

    func testLibraryContentPlaysByNameAndAMisspeltNameGetsASuggestion() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("library-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "loud sharp\n. 0.1s\nsoft dull\n".write(to: folder.appendingPathComponent("success.hnl"), atomically: true, encoding: .utf8)
        try start(library: try ContentLibrary.load(folder: folder))
        XCTAssertEqual(service.library.names, ["success"])
        XCTAssertEqual(try service.play(ServicePlayRequest(content: .library("success")), from: kiosk).player?.name, "success")
        do {
            _ = try service.play(ServicePlayRequest(content: .library("sucess")), from: kiosk)
            XCTFail("played a missing item")
        } catch {
            XCTAssertEqual(error.code, .notInLibrary)
            XCTAssertTrue(error.message.hasSuffix("did you mean 'success'?"), error.message)
        }
    }

    /// The names offered as playable are exactly those `play` does not refuse for its limits.
    func testPlayableLibraryNamesAreThoseWithinTheLimits() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("library-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let items = ["short": "loud sharp\n", "long": "continuous 3s:\n  intensity: loud\n", "busy": "soft sharp\nsoft sharp\nsoft sharp\nsoft sharp\n"]
        for (name, text) in items { try text.write(to: folder.appendingPathComponent("\(name).hnl"), atomically: true, encoding: .utf8) }
        var limits = HapticService.Limits()
        limits.maximumDuration = .seconds(2)
        limits.maximumEvents = 3
        try start(library: try ContentLibrary.load(folder: folder), limits: limits)
        XCTAssertEqual(service.playableLibraryNames, ["short"])
        // Compiled outside the engine's lock, which streams playing meanwhile need.
        let channel = try XCTUnwrap(service.engine.channels.first)
        XCTAssertEqual(channel.compilations, 2, "short and long; busy has too many events to compile")
        XCTAssertEqual(channel.compiledAhead, 2)
        for name in items.keys.sorted() {
            let refused = refusal { try self.service.play(ServicePlayRequest(content: .library(name)), from: self.kiosk) }
            XCTAssertEqual(refused == nil, service.playableLibraryNames.contains(name), "\(name): \(String(describing: refused))")
        }
        // Worked out once per library: a reload (SIGHUP) that shortens an item is seen.
        try "continuous 1s:\n  intensity: loud\n".write(to: folder.appendingPathComponent("long.hnl"), atomically: true, encoding: .utf8)
        service.reload(library: try ContentLibrary.load(folder: folder), theme: nil)
        XCTAssertEqual(service.playableLibraryNames, ["long", "short"])
    }

    func testNamedEventsPlayAsTheProfileSays() throws {
        let theme = try FeedbackTheme.parse("""
            { "name": "kiosk", "profiles": [
              { "name": "full", "feedbacks": [ { "event-name": "button-pressed", "type": "Sound", "effect": "button-pressed" } ] },
              { "name": "quiet", "feedbacks": [
                { "event-name": "button-pressed", "type": "VibraPattern", "magnitudes": [0.2], "durations": [7] },
                { "event-name": "alarm-clock-elapsed", "type": "VibraRumble", "duration": 300, "count": 2, "pause": 100 } ] },
              { "name": "silent", "feedbacks": [ { "event-name": "battery-caution", "type": "Led", "color": "red", "frequency": 5000 } ] }
            ] }
            """, file: "kiosk.json")
        XCTAssertEqual(theme.skippedTypes, ["Led", "Sound"])
        try start(theme: theme)
        let pressed = try XCTUnwrap(service.play(ServicePlayRequest(content: .event("button-pressed")), from: kiosk).player)
        XCTAssertEqual(pressed.duration, 0.007, accuracy: 0.0015)
        service.profile = .silent
        XCTAssertNil(try service.play(ServicePlayRequest(content: .event("alarm-clock-elapsed")), from: kiosk).player, "silent: no vibra")
        XCTAssertEqual(refusal { try self.service.play(ServicePlayRequest(content: .event("alarm-clock-elapsed"), actuators: ["left"]), from: self.kiosk) }, .unknownActuator,
                       "an actuator the board does not have is refused even where the profile plays nothing")
        XCTAssertEqual(refusal { try self.service.play(ServicePlayRequest(content: .event("alarm-clock-elapsed"), profile: .full), from: self.kiosk) }, .overrideNotAllowed)
        let alarmClient = ServiceClient(id: 3, mayOverrideProfile: true)
        let alarm = try XCTUnwrap(service.play(ServicePlayRequest(content: .event("alarm-clock-elapsed"), profile: .full), from: alarmClient).player)
        XCTAssertEqual(alarm.duration, 0.7, accuracy: 0.01)
        XCTAssertEqual(refusal { try self.service.play(ServicePlayRequest(content: .event("phone-incoming-call")), from: self.kiosk) }, .unknownEvent)
        XCTAssertTrue(events.all.contains(.profileChanged(.silent)))
    }

    func testShutDownMidPatternLeavesTheChipStoppedInStandby() throws {
        try start()
        let player = try XCTUnwrap(service.play(notation("continuous 5s:\n  intensity: loud", outlives: true), from: kiosk).player)
        run(for: .milliseconds(300))
        XCTAssertNotEqual(chip.drive.changes.last?.amplitude, 0)
        service.shutDown()
        XCTAssertEqual(chip.drive.changes.last?.amplitude, 0)
        XCTAssertEqual(chip.register(DRV2605Register.mode.rawValue) & 0x40, 0x40)
        XCTAssertTrue(events.playerEvents.contains("ended \(player.id) shut-down"))
        service = nil
    }
}

/// Every event the service published, in order.
private final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [ServiceEvent] = []

    func append(_ event: ServiceEvent) {
        lock.withLock { events.append(event) }
    }

    var all: [ServiceEvent] { lock.withLock { events } }

    /// Player events as `started ID` / `ended ID reason`.
    var playerEvents: [String] {
        all.compactMap { event in
            switch event {
            case .playerStarted(let player): "started \(player.id)"
            case .playerEnded(let id, let reason): "ended \(id) \(reason.rawValue)"
            default: nil
            }
        }
    }
}
