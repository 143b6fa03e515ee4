import ActuatorHAL
import HardwareMocks
import MallocInterposerSwift
import XCTest
@testable import HapticRuntime

/// One simulated hour of an application's players, kept and used again as a game keeps them: an
/// engine note under live control (bursts of `sendParameters` at 60 Hz, curves, pauses, seeks,
/// rate changes), a looping rumble with its own controls, and a click started with a stop for
/// later. Every ten minutes the players are stopped and the engine left to go idle, and the heap
/// is measured: neither the allocations nor the bytes still live may grow beyond the rests' own
/// scatter. (`SoakTests` does the same for the service, whose players are short and made per request.)
final class PlayerSoakTests: XCTestCase {
    func testOneSimulatedHourOfKeptPlayersUnderLiveControl() throws {
        let wallStart = ContinuousClock.now
        let rig = EngineRig()
        // The simulation keeps bounded histories, so what grows is the engine's.
        rig.board.keepOnlyRecentHistory(64)
        try rig.engine.start()
        let players = try KeptPlayers(engine: rig.engine)
        // The engine keeps the newest `recordedHistoryLimit` power transitions: filled to that
        // bound first, so that its array, which in this soak grows toward it for hours (two or
        // three transitions a click), is not counted as growth.
        let filler = PowerTransitionReport(transition: .prepare, from: .standby, to: .ready, elapsed: .microseconds(10), budget: .milliseconds(1))
        for _ in 0...HapticEngine.recordedHistoryLimit { rig.engine.record(filler, on: rig.engine.channels[0], automatic: true) }
        func run(for duration: Duration) { rig.scheduler.run(until: rig.now + duration) }

        var random = SplitMix64(seed: 0x50AC_1A7E)
        var tally = PlayerSoakTally()
        var rests: [(allocations: Int, bytes: Int)] = []
        let end = rig.now + .seconds(3600)
        var nextRest = rig.now + .seconds(600)
        MallocInterposerSwift.hook()
        defer { MallocInterposerSwift.unhook() }
        while rig.now < end {
            if rig.now >= nextRest {
                rests.append(Self.rest(players, engine: rig.engine, run: run))
                nextRest = rig.now + .seconds(600)
            }
            try Self.randomAction(&random, players: players, rig: rig, tally: &tally, run: run)
            run(for: .milliseconds(Int64(random.next() % 6_000) + 20))
        }
        rests.append(Self.rest(players, engine: rig.engine, run: run))

        XCTAssertEqual(rig.drive(at: rig.now.seconds), 0)
        XCTAssertTrue([.standby, .off].contains(rig.actuator.powerState), "\(rig.actuator.powerState)")
        // What the players keep is bounded whatever they were sent: per control, the source in
        // force; no stop, pause or resume once it has run.
        for player in players.all {
            XCTAssertLessThanOrEqual(player.sentSourceCount, DynamicParameterID.allCases.count)
            XCTAssertEqual(player.scheduledControlCount, 0)
        }
        // No growth of the heap after the second rest (warm: every kind of control has happened),
        // beyond the rests' own scatter: what the players hold at that moment varies (a sloped
        // curve in force makes the note's program and plan dense). Run for three simulated hours:
        // 366 to 581 allocations and 141 to 156 KB live, not rising. The heap is the process's:
        // run after other tests in the test command, their objects freed meanwhile lowered a
        // rest by about 740 allocations and 33–49 KB, so the bounds leave room. Kept for the
        // hour, the values sent alone (24 bytes each or more) would add over 100 KB.
        let warm = try XCTUnwrap(rests.dropFirst().first)
        for (index, rest) in rests.enumerated().dropFirst(2) {
            XCTAssertLessThanOrEqual(rest.allocations - warm.allocations, 300, "live allocations at rest \(index): \(rests)")
            XCTAssertLessThanOrEqual(rest.bytes - warm.bytes, 65_536, "live bytes at rest \(index): \(rests)")
        }
        XCTAssertGreaterThan(tally.sends, 4_000, "\(tally)")
        XCTAssertGreaterThan(tally.laterStops, 150, "\(tally)")
        print("player soak: 1 simulated hour in \(ContinuousClock.now - wallStart); \(tally); live allocations/bytes at rest \(rests)")
    }

    /// The players the application keeps for the hour.
    private struct KeptPlayers {
        /// A 5 s engine note under live control.
        let note: HapticAdvancedPatternPlayer
        /// A half-second rumble, looped while on.
        let rumble: HapticAdvancedPatternPlayer
        /// A click, started with a stop for later.
        let click: HapticAdvancedPatternPlayer

        init(engine: HapticEngine) throws {
            note = try engine.makeAdvancedPlayer(with: TestPatterns.buzz(duration: 5, intensity: 0.8))
            rumble = try engine.makeAdvancedPlayer(with: TestPatterns.buzz(duration: 0.5, intensity: 0.6))
            rumble.loopEnabled = true
            click = try engine.makeAdvancedPlayer(with: TestPatterns.taps(at: [0]))
        }

        var all: [HapticAdvancedPatternPlayer] { [note, rumble, click] }
    }

    /// One random thing the application does.
    private static func randomAction(
        _ random: inout SplitMix64, players: KeptPlayers, rig: EngineRig, tally: inout PlayerSoakTally, run: (Duration) -> Void
    ) throws {
        let now = rig.now.seconds
        func fraction() -> Double { Double(random.next() % 1_000) / 1_000 }
        switch random.next() % 100 {
        case 0..<30:
            // A burst of frames: the note (or the rumble) follows the game's throttle.
            let player = random.next() % 3 == 0 ? players.rumble : players.note
            try player.start(atTime: 0)
            for _ in 0..<(random.next() % 30 + 1) {
                try player.sendParameters([DynamicParameter(.hapticIntensityControl, value: fraction(), time: 0)], atTime: 0)
                tally.sends += 1
                run(.microseconds(16_667))
            }
        case 30..<38:
            let curve = ParameterCurve(.hapticSharpnessControl, time: 0, controlPoints: [
                ControlPoint(time: 0, value: fraction()), ControlPoint(time: 0.2 + fraction(), value: fraction()),
            ])
            try players.note.scheduleParameterCurve(curve, atTime: 0)
            tally.curves += 1
        case 38..<55:
            try players.click.start(atTime: now + 0.01)
            try players.click.stop(atTime: now + 0.05 + fraction() / 2)
            tally.laterStops += 1
        case 55..<62:
            try players.note.pause(atTime: now + fraction())
            try players.note.resume(atTime: now + 1 + fraction())
        case 62..<68:
            try players.note.seek(toOffset: fraction() * 5)
        case 68..<73:
            try players.note.setPlaybackRate(0.5 + fraction() * 1.5)
        case 73..<78:
            players.rumble.loopEnabled.toggle()
        case 78..<88:
            try players.all[Int(random.next() % 3)].stop(atTime: 0)
        case 88..<92:
            try players.all[Int(random.next() % 3)].cancel()
        default:
            break
        }
    }

    /// Stops every player, lets the actuator go idle, and returns what is live on the heap.
    private static func rest(_ players: KeptPlayers, engine: HapticEngine, run: (Duration) -> Void) -> (allocations: Int, bytes: Int) {
        for player in players.all { try? player.stop(atTime: 0) }
        run(.seconds(40))
        // The cache of compiled programs fills with what played last and empties when full
        // (bounded: `cachedProgramLimit`); counted, it would hide a leak in its scatter.
        engine.dropCachedPrograms()
        let statistics = MallocInterposerSwift.getStatistics()
        return (statistics.mallocCount - statistics.freeCount, statistics.mallocBytesCount - statistics.freeBytesCount)
    }
}

private struct PlayerSoakTally: CustomStringConvertible {
    var sends = 0
    var curves = 0
    var laterStops = 0

    var description: String { "\(sends) values sent, \(curves) curves, \(laterStops) stops for later" }
}
