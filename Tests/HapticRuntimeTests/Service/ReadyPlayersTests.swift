import ActuatorHAL
import Foundation
import HardwareMocks
import XCTest
@testable import HapticRuntime

/// The service starts the players of requests that ended cleanly again for the next request for
/// the same content (`ReadyPlayers`), and only while that plays exactly what a new player would.
final class ReadyPlayersTests: XCTestCase {
    private var hardware: SimulatedBoardHardware!
    private var service: HapticService!
    private let client = ServiceClient(id: 1)
    private static let rigid = ServicePlayRequest(content: .feedback(.impact(.rigid), intensity: 1))

    private var clock: VirtualClock { hardware.virtualClock }
    private var bus: SimulatedI2CBus { hardware.chips["main"]!.bus }

    private func start(library: ContentLibrary? = nil, theme: FeedbackTheme? = nil) throws {
        hardware = SimulatedBoardHardware()
        service = HapticService(
            board: try Board.sim.open(on: hardware), scheduler: DeadlineScheduler(clock: hardware.virtualClock),
            library: library ?? ContentLibrary(folder: FileManager.default.temporaryDirectory), theme: theme
        )
        try service.start(timing: nil)
    }

    override func tearDown() {
        service?.shutDown()
    }

    private func run(for duration: Duration) {
        service.scheduler.run(until: clock.now + duration)
    }

    /// Plays `request`, lets it end and the actuator settle; returns the engine player it played on
    /// and the bus transactions it caused, timed from the request.
    private func playToEnd(_ request: ServicePlayRequest) throws -> (HapticAdvancedPatternPlayer, [(Duration, [I2COperation])]) {
        bus.clearLog()
        let requested = clock.now
        let id = try XCTUnwrap(service.play(request, from: client).player?.id)
        let player = try XCTUnwrap(service.enginePlayers(of: id).first)
        run(for: .seconds(10))
        XCTAssertEqual(service.players, [], "it ended")
        return (player, bus.log.map { ($0.time - requested, $0.operations) })
    }

    private func assertSameTransactions(_ first: [(Duration, [I2COperation])], _ second: [(Duration, [I2COperation])], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(first.isEmpty, file: file, line: line)
        XCTAssertEqual(first.map(\.0), second.map(\.0), "the same times", file: file, line: line)
        XCTAssertEqual(first.map(\.1), second.map(\.1), "the same writes and reads", file: file, line: line)
    }

    func testARequestLikeOneThatEndedStartsItsPlayerAgainAndPlaysAsANewPlayerWould() throws {
        // Two services with the same history: the first plays the click a second time on its
        // kept player, the other on a new one (a reload drops what it kept). The scheduler has
        // learned the same bus costs in both, so the bus must see the same thing at the same times.
        try start()
        let keeping = try XCTUnwrap(service)
        defer { keeping.shutDown() }
        let (first, _) = try playToEnd(Self.rigid)
        XCTAssertEqual(service.readyPlayerCount, 1)
        let (second, kept) = try playToEnd(Self.rigid)
        XCTAssertTrue(first === second, "the ended player is started again")

        try start()
        _ = try playToEnd(Self.rigid)
        service.reload(library: service.library, theme: nil)
        let (new, made) = try playToEnd(Self.rigid)
        XCTAssertFalse(new === first)
        assertSameTransactions(kept, made)
    }

    func testOtherContentHasAPlayerOfItsOwn() throws {
        try start()
        let (rigid, _) = try playToEnd(Self.rigid)
        let (soft, _) = try playToEnd(ServicePlayRequest(content: .feedback(.impact(.soft), intensity: 1)))
        XCTAssertFalse(soft === rigid)
        XCTAssertEqual(service.readyPlayerCount, 2)
        // The board has one actuator: a list naming it asks for what no list does.
        let (named, _) = try playToEnd(ServicePlayRequest(content: .feedback(.impact(.rigid), intensity: 1), actuators: ["main"]))
        XCTAssertTrue(named === rigid)
    }

    func testOverlappingRequestsEachHaveAPlayerAndAtMostFourAreKept() throws {
        try start()
        var players: [HapticAdvancedPatternPlayer] = []
        for _ in 0..<6 {
            let id = try XCTUnwrap(service.play(Self.rigid, from: client).player?.id)
            players += service.enginePlayers(of: id)
        }
        XCTAssertEqual(Set(players.map(ObjectIdentifier.init)).count, 6, "a kept player is never started twice at once")
        run(for: .seconds(10))
        XCTAssertEqual(service.readyPlayerCount, ReadyPlayers.perContent)
        let id = try XCTUnwrap(service.play(Self.rigid, from: client).player?.id)
        XCTAssertTrue(players.contains { $0 === service.enginePlayers(of: id).first })
        XCTAssertEqual(service.readyPlayerCount, ReadyPlayers.perContent - 1)
    }

    func testStoppedAndPreemptedPlayersAreKeptAndPlayFromTheirStartWithoutLooping() throws {
        try start()
        let looped = ServicePlayRequest(content: .notation("continuous 0.1s:\n  intensity: loud"), outlivesClient: true, loops: true)
        let id = try XCTUnwrap(service.play(looped, from: client).player?.id)
        let player = try XCTUnwrap(service.enginePlayers(of: id).first)
        run(for: .milliseconds(350))
        try service.stop(player: id)
        XCTAssertEqual(service.readyPlayerCount, 1)

        // The same content without `loops`: the kept player plays it once and ends by itself.
        var once = looped
        once.loops = false
        let (again, _) = try playToEnd(once)
        XCTAssertTrue(again === player)

        let low = try XCTUnwrap(service.play(once, from: client).player?.id)
        run(for: .milliseconds(20))
        _ = try service.play(ServicePlayRequest(content: .effect(1), priority: 1), from: client)
        XCTAssertFalse(service.players.contains { $0.id == low }, "preempted")
        run(for: .seconds(10))
        XCTAssertEqual(service.readyPlayerCount, 2, "the preempted player and the effect's")
    }

    func testARefusedRequestLeavesThePlayersItMadeForTheNext() throws {
        try start()
        let high = try XCTUnwrap(service.play(ServicePlayRequest(content: .notation("continuous 1s:\n  intensity: loud"), priority: 5), from: client).player)
        XCTAssertThrowsError(try service.play(Self.rigid, from: client)) { error in
            XCTAssertEqual((error as? ServiceError)?.code, .busy)
        }
        XCTAssertEqual(service.readyPlayerCount, 1, "made, refused, not played: kept")
        try service.stop(player: high.id)
        XCTAssertEqual(service.readyPlayerCount, 2)
        let (_, transactions) = try playToEnd(Self.rigid)
        XCTAssertFalse(transactions.isEmpty, "it plays")
        XCTAssertEqual(service.readyPlayerCount, 2, "taken, played, kept again")
    }

    func testPlayersThatEndedOnAFaultAreNotKept() throws {
        let rig = try FaultRig()
        defer { rig.service.shutDown() }
        let (a, b) = try rig.playOnBoth()
        let bus = rig.chip("a").bus
        bus.injectError(.noAcknowledge(bus: bus.name, address: SimulatedBoard.chipAddress), onTransfer: 1)
        rig.run(for: .seconds(2))
        XCTAssertEqual(rig.endReason(of: a), "actuator-fault")
        XCTAssertEqual(rig.endReason(of: b), "finished")
        XCTAssertEqual(rig.service.readyPlayerCount, 1, "b's, which played to its end; not a's")
    }

    func testAnEngineThatStoppedKeepsNoPlayers() throws {
        try start()
        _ = try playToEnd(Self.rigid)
        XCTAssertEqual(service.readyPlayerCount, 1)
        let id = try XCTUnwrap(service.play(ServicePlayRequest(content: .notation("continuous 1s:\n  intensity: loud")), from: client).player?.id)
        run(for: .milliseconds(100))
        // The board's only actuator fails: the engine stops.
        bus.injectError(.noAcknowledge(bus: bus.name, address: SimulatedBoard.chipAddress), onTransfer: 1)
        run(for: .seconds(2))
        XCTAssertFalse(service.players.contains { $0.id == id })
        XCTAssertEqual(service.readyPlayerCount, 0)
        XCTAssertNotNil(try service.play(Self.rigid, from: client).player, "a new player")
    }

    func testAPlayerCompiledBeforeTheEngineSettingsChangedIsNotStartedAgain() throws {
        try start()
        let (first, _) = try playToEnd(Self.rigid)
        service.engine.isMutedForAudio = true
        let (second, _) = try playToEnd(Self.rigid)
        XCTAssertFalse(first === second, "compile settings changed: a new player")
        XCTAssertEqual(service.readyPlayerCount, 1, "the out-of-date one was dropped")
        let (third, _) = try playToEnd(Self.rigid)
        XCTAssertTrue(third === second)
    }

    func testAReloadDropsKeptPlayersSoANameMeansItsNewContent() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ready-players-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("tap.hnl")
        try "continuous 0.02s:\n  intensity: loud\n".write(to: file, atomically: true, encoding: .utf8)
        try start(library: try ContentLibrary.load(folder: folder))
        let tap = ServicePlayRequest(content: .library("tap"))
        let (first, _) = try playToEnd(tap)
        XCTAssertEqual(first.duration, 0.02, accuracy: 0.005)

        try "continuous 0.06s:\n  intensity: loud\n".write(to: file, atomically: true, encoding: .utf8)
        service.reload(library: try ContentLibrary.load(folder: folder), theme: nil)
        XCTAssertEqual(service.readyPlayerCount, 0)
        let (second, _) = try playToEnd(tap)
        XCTAssertFalse(first === second)
        XCTAssertEqual(second.duration, 0.06, accuracy: 0.005)
    }

    func testAKeptEventPlayerIsNotAWayAroundTheProfile() throws {
        let theme = try FeedbackTheme.parse("""
            { "name": "kiosk", "profiles": [
              { "name": "full", "feedbacks": [ { "event-name": "alarm-clock-elapsed", "type": "VibraRumble", "duration": 30, "count": 1, "pause": 0 } ] },
              { "name": "quiet", "feedbacks": [ { "event-name": "alarm-clock-elapsed", "type": "VibraPattern", "magnitudes": [0.2], "durations": [7] } ] }
            ] }
            """, file: "kiosk.json")
        try start(theme: theme)
        service.profile = .quiet
        let loud = ServicePlayRequest(content: .event("alarm-clock-elapsed"), profile: .full)
        _ = try service.play(loud, from: ServiceClient(id: 3, mayOverrideProfile: true))
        run(for: .seconds(10))
        XCTAssertEqual(service.readyPlayerCount, 1)
        XCTAssertThrowsError(try service.play(loud, from: client)) { error in
            XCTAssertEqual((error as? ServiceError)?.code, .overrideNotAllowed)
        }
        // At the profile in force, the event plays its quiet content, not the kept loud one.
        let quiet = try XCTUnwrap(service.play(ServicePlayRequest(content: .event("alarm-clock-elapsed")), from: client).player)
        XCTAssertEqual(quiet.duration, 0.007, accuracy: 0.0015)
        XCTAssertEqual(service.readyPlayerCount, 1, "the loud one is still kept")
    }
}
