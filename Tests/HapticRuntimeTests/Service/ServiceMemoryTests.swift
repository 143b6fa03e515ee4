import ActuatorHAL
import Foundation
import HardwareMocks
import XCTest
@testable import HapticRuntime

/// A long-running service keeps nothing of the players that ended, beyond the few it keeps to
/// start again (`ReadyPlayers`), and those only until its library is replaced.
final class ServiceMemoryTests: XCTestCase {
    func testEndedPlayersAreReleased() throws {
        let hardware = SimulatedBoardHardware()
        let board = try Board.sim.open(on: hardware)
        var limits = HapticService.Limits()
        limits.triggersPerSecond = 1_000_000
        limits.triggerBurst = 1_000_000
        limits.playersPerActuator = 10_000
        let service = HapticService(board: board, scheduler: DeadlineScheduler(clock: hardware.virtualClock), library: ContentLibrary(folder: FileManager.default.temporaryDirectory), limits: limits)
        try service.start(timing: nil)
        defer { service.shutDown() }
        let client = ServiceClient(id: 1)
        weak var first: HapticAdvancedPatternPlayer?
        for index in 0..<500 {
            let started = try service.play(ServicePlayRequest(content: .feedback(.impact(.rigid), intensity: 1)), from: client)
            if index == 0, let id = started.player?.id {
                first = service.enginePlayers(of: id).first
            }
            service.scheduler.run(until: hardware.virtualClock.now + .milliseconds(1))
        }
        service.scheduler.run(until: hardware.virtualClock.now + .seconds(40))
        XCTAssertEqual(service.players, [])
        XCTAssertLessThanOrEqual(service.readyPlayerCount, ReadyPlayers.perContent)
        service.reload(library: service.library, theme: nil)
        XCTAssertNil(first, "the first player is still referenced")
        XCTAssertTrue(service.engine.activePlayers.isEmpty)
        XCTAssertEqual(service.scheduler.pendingCount, 0, "actions left queued")
    }
}
