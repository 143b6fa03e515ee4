import ActuatorHAL
import BoardFiles
import Foundation
@testable import HapticRuntime
import HardwareMocks
import MallocInterposerSwift
import XCTest

/// One simulated hour of a service on four actuators: seeded random content, players, stops,
/// client departures, keep-awake windows (so power transitions both ways) and injected faults. On
/// virtual time it takes seconds. Every ten minutes the service is brought to rest and measured:
/// the allocations still live (they must not grow from one rest to the next), and the lateness
/// of the dispatches in those ten minutes (it must not drift).
final class SoakTests: XCTestCase {
    private static let actuators = ["a", "b", "c", "d"]
    private static let board = """
        board: soak
        buses:
        \(actuators.map { "  - name: bus-\($0)\n    device: sim\n    clock-frequency: 400000" }.joined(separator: "\n"))
        actuators:
        \(actuators.map { name in """
              - name: \(name)
                compatible: ti,drv2605l
                bus: bus-\(name)
                reg: 0x5a
                enable-gpios: EN-\(name)
                actuator-mode: LRA
                loop: closed
                vib-rated-mv: 2000
                vib-overdrive-mv: 2800
                resonant-frequency-hz: 175
                library-sel: 6
            """ }.joined(separator: "\n"))
        power:
          standby-timeout-ms: 2000
          off-timeout-ms: 30000
        """

    private static let contents: [ServiceContent] = [
        .notation("loud sharp"),
        .notation("soft dull\n. 0.08s\nloud sharp"),
        .notation("continuous 0.25s:\n  intensity: loud"),
        .notation("continuous 0.4s:\n  intensity: 0.5\n  sharpness: 0.2"),
        .effect(1), .effect(47), .effect(14),
        .feedback(.impact(.rigid), intensity: 1),
        .feedback(.notification(.success), intensity: 0.6),
    ]

    func testOneSimulatedHourOfRandomUseAndFaultsOnFourActuators() throws {
        let wallStart = ContinuousClock.now
        let hardware = SimulatedBoardHardware()
        let board = try Board(yaml: Self.board, source: "soak.yml").open(on: hardware)
        let service = HapticService(board: board, scheduler: DeadlineScheduler(clock: hardware.virtualClock), library: ContentLibrary(folder: FileManager.default.temporaryDirectory))
        try service.start(timing: nil)
        defer { service.shutDown() }
        let clock = hardware.virtualClock
        // The mocks keep bounded histories, so what grows is the stack's, not the simulation's.
        for chip in hardware.chips.values {
            chip.bus.logLimit = 64
            chip.chip.driveHistoryLimit = 4_096
        }
        func run(for duration: Duration) { service.scheduler.run(until: clock.now + duration) }

        var random = SplitMix64(seed: 0x20_50AC)
        var tally = SoakTally()
        var restingLive: [Int] = []
        var windows: [LatenessHistogram] = []
        var windowStart = service.scheduler.metrics.lateness
        let end = clock.now + .seconds(3600)
        var nextRest = clock.now + .seconds(600)

        MallocInterposerSwift.hook()
        defer { MallocInterposerSwift.unhook() }
        while clock.now < end {
            if clock.now >= nextRest {
                restingLive.append(Self.rest(service, hardware: hardware, run: run))
                let lateness = service.scheduler.metrics.lateness
                windows.append(lateness.since(windowStart))
                windowStart = lateness
                nextRest = clock.now + .seconds(600)
            }
            try Self.randomAction(&random, service: service, hardware: hardware, tally: &tally, run: run)
            run(for: .milliseconds(Int64(random.next() % 8_000) + 20))
        }
        restingLive.append(Self.rest(service, hardware: hardware, run: run))
        windows.append(service.scheduler.metrics.lateness.since(windowStart))

        // Every actuator ends stopped, in standby — or off (EN low) once its off timeout passed,
        // as after the last rest.
        service.stopAll()
        run(for: .seconds(3))
        for name in Self.actuators {
            let chip = try XCTUnwrap(hardware.chips[name])
            XCTAssertEqual(chip.chip.drive.level(at: clock.now).amplitude, 0, name)
            switch service.engine.actuatorStates[name] {
            case .standby?:
                XCTAssertEqual(chip.enableLine.level, .high, name)
                XCTAssertEqual(chip.chip.register(DRV2605Register.mode.rawValue) & 0x40, 0x40, "\(name) MODE.STANDBY")
                XCTAssertEqual(chip.chip.register(DRV2605Register.go.rawValue), 0, name)
            case .off?:
                XCTAssertEqual(chip.enableLine.level, .low, name)
            case let state:
                XCTFail("\(name) is \(String(describing: state)) at the end")
            }
        }

        // No growth: what is live at each rest after the second (warm: every kind of content, fault
        // and transition has happened) stays within the rests' own scatter (about ±160: queue and
        // table capacities differ with what played last) of it. A leak of one allocation per
        // player started would add about 480 by the end.
        let warm = try XCTUnwrap(restingLive.dropFirst().first)
        for (index, live) in restingLive.enumerated().dropFirst(2) {
            XCTAssertLessThanOrEqual(live - warm, 300, "live allocations at rest \(index): \(restingLive)")
        }
        // No drift: in every ten minutes the dispatches are as punctual as in the first ten — the
        // median on time, the 90th percentile no later than the first window's (faults make the
        // tail: a stuck bus holds the timing thread for the adapter's timeouts). The figures count
        // the commands aimed at (housekeeping is not: status polls, idle timers), 320–430 a window.
        let first = try XCTUnwrap(windows.first)
        for (index, window) in windows.enumerated() {
            XCTAssertGreaterThan(window.count, 200, "window \(index) dispatched")
            XCTAssertLessThanOrEqual(window.percentile(0.5), .microseconds(50), "window \(index) median")
            XCTAssertLessThanOrEqual(window.percentile(0.9), first.percentile(0.9) + .microseconds(100), "window \(index) p90")
        }
        XCTAssertGreaterThan(tally.started, 300, "\(tally)")
        XCTAssertGreaterThan(tally.faultsInjected, 40, "\(tally)")
        XCTAssertGreaterThan(service.counters.faults, 20, "faults the service saw")
        XCTAssertTrue(service.engine.powerTransitions.contains { $0.report.to == .off }, "the off timeout passed")
        print("soak: 1 simulated hour in \(ContinuousClock.now - wallStart); \(tally); service faults \(service.counters.faults); live allocations at rest \(restingLive); lateness median/p90/p99/max per 10 min \(windows.map { "\($0.percentile(0.5))/\($0.percentile(0.9))/\($0.percentile(0.99))/\($0.maximum)" })")
    }

    /// One random thing a client, the board or the hardware does.
    private static func randomAction(
        _ random: inout SplitMix64, service: HapticService, hardware: SimulatedBoardHardware, tally: inout SoakTally, run: (Duration) -> Void
    ) throws {
        let client = ServiceClient(id: Int(random.next() % 4) + 1)
        let roll = random.next() % 100
        switch roll {
        case 0..<55:
            let content = contents[Int(random.next() % UInt64(contents.count))]
            let count = Int(random.next() % 4) + 1
            let targets = count == 4 ? nil : Array(actuators.shuffled(using: &random).prefix(count))
            let request = ServicePlayRequest(content: content, actuators: targets, priority: Int(random.next() % 3), outlivesClient: random.next() % 2 == 0)
            do {
                _ = try service.play(request, from: client)
                tally.started += 1
            } catch {
                tally.refused += 1
            }
        case 55..<65:
            if let player = service.players.randomElement(using: &random) { try? service.stop(player: player.id) }
        case 65..<68:
            service.stopAll()
        case 68..<72:
            service.clientLeft(client)
        case 72..<78:
            try? service.keepAwake(for: .milliseconds(Int64(random.next() % 10_000) + 500))
        default:
            let chip = hardware.chips[actuators[Int(random.next() % UInt64(actuators.count))]]!
            tally.faultsInjected += 1
            let address = SimulatedBoard.chipAddress
            switch random.next() % 9 {
            case 0: chip.bus.injectError(.transfer(bus: chip.bus.name, address: address, errno: .ioError), onTransfer: Int(random.next() % 20) + 1)
            case 1: chip.bus.injectError(.transfer(bus: chip.bus.name, address: address, errno: .resourceTemporarilyUnavailable), onTransfer: 1, times: 2)
            case 2: chip.bus.injectError(.noAcknowledge(bus: chip.bus.name, address: address), onTransfer: Int(random.next() % 5) + 1)
            case 3: chip.chip.injectOverTemperature()
            case 4: chip.chip.injectOverCurrent()
            case 5: chip.chip.injectPowerOnReset()
            case 6:
                chip.bus.isStuck = true
                run(.milliseconds(Int64(random.next() % 300) + 10))
                chip.bus.isStuck = false
            case 7:
                chip.bus.detach(at: address)
                run(.milliseconds(Int64(random.next() % 500) + 10))
                chip.bus.attach(chip.chip, at: address)
            default:
                chip.bus.injectError(.transfer(bus: chip.bus.name, address: address, errno: .operationNotSupportedByDevice), onTransfer: 1, times: Int(random.next() % 50) + 1)
            }
        }
    }

    /// Stops everything, lets every timer run out (the off timeout included), and returns the
    /// allocations live now.
    private static func rest(_ service: HapticService, hardware: SimulatedBoardHardware, run: (Duration) -> Void) -> Int {
        service.stopAll()
        for chip in hardware.chips.values { chip.bus.clearInjectedFaults() }
        run(.seconds(40))
        // The players kept to be started again are a cache whose fill depends on what played last
        // (bounded: `ReadyPlayersTests`); counted, they would hide a leak in their scatter.
        service.dropReadyPlayers()
        let statistics = MallocInterposerSwift.getStatistics()
        return statistics.mallocCount - statistics.freeCount
    }
}

private struct SoakTally: CustomStringConvertible {
    var started = 0
    var refused = 0
    var faultsInjected = 0

    var description: String { "\(started) players started, \(refused) refused, \(faultsInjected) faults injected" }
}
