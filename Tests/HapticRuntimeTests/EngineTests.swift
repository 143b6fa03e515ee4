import ActuatorHAL
import Foundation
import HardwareMocks
import XCTest
@testable import HapticRuntime

final class EngineTests: XCTestCase {
    func testTransientFromOffLandsOnItsDeadline() throws {
        let rig = EngineRig()
        try rig.engine.start()
        let player = try rig.engine.makePlayer(with: TestPatterns.taps(at: [0]))
        try player.start(atTime: 1.0)
        rig.run(until: 2)

        // GO completes on the deadline: the trigger was issued early by its bus cost.
        let go = try XCTUnwrap(rig.goTimes.first)
        XCTAssertLessThanOrEqual(abs((go - .at(1.0)).secondsValue), oneWrite.secondsValue, "GO at \(go)")
        let firstDrive = try XCTUnwrap(rig.board.chip.drive.changes.first { $0.amplitude != 0 })
        XCTAssertLessThanOrEqual(abs((firstDrive.time - .at(1.0)).secondsValue), oneWrite.secondsValue)
        // Powered up from off ahead of it, by the engine.
        let transitions = rig.engine.powerTransitions.map { ($0.report.transition, $0.report.from, $0.automatic) }
        XCTAssertEqual(transitions.first?.0, .wake)
        XCTAssertEqual(transitions.first?.1, .off)
        XCTAssertEqual(transitions.first?.2, true)
        let wake = try XCTUnwrap(rig.engine.powerTransitions.first)
        XCTAssertFalse(wake.report.overran, "\(wake.report)")
        XCTAssertEqual(rig.scheduler.metrics.droppedLate, 0)
    }

    func testAmplitudeStreamsOnDeadlinesAndEnds() throws {
        let rig = EngineRig()
        try rig.engine.start()
        let player = try rig.engine.makePlayer(with: TestPatterns.buzz(duration: 0.1))
        try player.start(atTime: 1.0)
        rig.run(until: 1.5)

        let rtp = rig.writes(to: 0x02)
        let firstOn = try XCTUnwrap(rtp.first { $0.value != 0 })
        XCTAssertLessThanOrEqual(abs((firstOn.end - .at(1.0)).secondsValue), oneWrite.secondsValue * 2, "first RTP at \(firstOn.end)")
        let lastOff = try XCTUnwrap(rtp.last)
        XCTAssertEqual(lastOff.value, 0)
        XCTAssertGreaterThanOrEqual(lastOff.end, .at(1.1) - oneWrite)
        XCTAssertGreaterThan(rig.drive(at: 1.05), 0.5)
        XCTAssertEqual(rig.drive(at: 1.2), 0)
        XCTAssertFalse(player.isPlaying)
    }

    func testLateTransientIsDroppedAndCounted() throws {
        let rig = EngineRig()
        try rig.engine.start()
        let player = try rig.engine.makePlayer(with: TestPatterns.taps(at: [0]))
        try player.start(atTime: 1.0)
        // The timing thread was held up past the deadline plus the tolerance.
        rig.board.clock.advance(to: .at(1.01))
        rig.run(until: 2)
        XCTAssertEqual(rig.scheduler.metrics.droppedLate, 1)
        XCTAssertTrue(rig.goTimes.isEmpty)
    }

    // "As soon as possible" names no time: a press, a trigger or a request plays however late the
    // timing thread gets to it (found in the kernel lane, where an emulated guest wakes it several
    // milliseconds late and every button press was dropped). Later taps keep their time.
    func testAPlayerStartedAsSoonAsPossibleClicksHoweverLateAndDropsOnlyLaterStaleTaps() throws {
        let rig = EngineRig()
        try rig.engine.start()
        rig.run(until: 1)
        let player = try rig.engine.makePlayer(with: TestPatterns.taps(at: [0, 0.2]))
        try player.start(atTime: 0)
        // The timing thread is held up 50 ms: past the first tap's deadline, before the second's.
        rig.board.clock.advance(to: .at(1.05))
        rig.run(until: 1.1)
        XCTAssertEqual(rig.goTimes.count, 1, "the opening tap played")
        XCTAssertEqual(rig.scheduler.metrics.droppedLate, 0)
        // Held up again, past the second tap's deadline (about 1.2 s) and the tolerance.
        rig.board.clock.advance(to: .at(1.25))
        rig.run(until: 2)
        XCTAssertEqual(rig.goTimes.count, 1)
        XCTAssertEqual(rig.scheduler.metrics.droppedLate, 1, "the later tap was stale")
    }

    /// On a ready actuator a start "as soon as possible" goes to the bus at once: not after the
    /// engine's worst-case lead (a whole sequencer trigger, 9 writes), which it used to wait out.
    /// The pattern keeps its own timing from there.
    func testAPlayerStartedAsSoonAsPossibleOnAReadyActuatorWritesAtOnce() throws {
        // No status reads, which could share the bus with the second tap.
        let rig = EngineRig(statusPollInterval: nil)
        try rig.engine.start()
        // The first tap wakes and prepares the chip, which then stays ready for 2 s.
        try rig.engine.makePlayer(with: TestPatterns.taps(at: [0])).start(atTime: 0)
        rig.run(until: 0.5)
        XCTAssertEqual(rig.actuator.powerState, .ready)
        let started = rig.now
        try rig.engine.makePlayer(with: TestPatterns.taps(at: [0, 0.1])).start(atTime: 0)
        rig.run(until: 1)
        let firstWrite = try XCTUnwrap(rig.board.bus.log.first { $0.time >= started })
        XCTAssertEqual(firstWrite.time, started, "the trigger's first write went out when start was called")
        let taps = rig.goTimes.filter { $0 >= started }
        XCTAssertEqual(taps.count, 2)
        XCTAssertEqual(taps[1] - taps[0], .milliseconds(100), "the pattern's own spacing")
        XCTAssertEqual(rig.scheduler.metrics.droppedLate, 0)
    }

    /// Content played again (a trigger, a binding, a game's effect) is compiled once, and plays
    /// the same from the second time on.
    func testContentPlayedAgainIsCompiledOnceAndPlaysAlike() throws {
        let rig = EngineRig(statusPollInterval: nil)
        try rig.engine.start()
        let channel = try XCTUnwrap(rig.engine.channels.first)
        var starts: [MonotonicInstant] = []
        for second in 0..<3 {
            starts.append(rig.now)
            try rig.engine.makePlayer(with: TestPatterns.taps(at: [0, 0.1])).start(atTime: 0)
            rig.run(until: Double(second) + 1)
        }
        XCTAssertEqual(channel.compilations, 1)
        let taps = rig.goTimes
        XCTAssertEqual(taps.count, 6)
        XCTAssertEqual(taps[3] - taps[2], taps[5] - taps[4], "the cached program plays as the compiled one")
        try rig.engine.makePlayer(with: TestPatterns.taps(at: [0, 0.2])).start(atTime: 0)
        XCTAssertEqual(channel.compilations, 2, "other content is compiled")
    }

    /// A pattern of more events, dynamic parameters and control points than a kept program may
    /// have commands is neither looked up nor kept — hashing it would read all of it — so it is
    /// compiled each time, even where its program would be short; one element fewer, it is kept.
    func testPatternsLargerThanAKeptProgramAreCompiledEachTime() throws {
        let rig = EngineRig(statusPollInterval: nil)
        try rig.engine.start()
        let channel = try XCTUnwrap(rig.engine.channels.first)
        /// A 1 s buzz held at full strength by a curve of `points` control points: one event more.
        func heldBuzz(points: Int) -> HapticPattern {
            var pattern = TestPatterns.buzz(duration: 1)
            let held = (0..<points).map { ControlPoint(time: Double($0) / Double(points), value: 1) }
            pattern.parameterCurves = [ParameterCurve(.hapticIntensityControl, time: 0, controlPoints: held)]
            return pattern
        }
        let limit = ActuatorChannel.cachedProgramCommands
        for _ in 0..<2 { _ = try rig.engine.makePlayer(with: heldBuzz(points: limit - 1)) }
        XCTAssertEqual(channel.compilations, 1, "\(limit) elements: kept")
        for _ in 0..<2 { _ = try rig.engine.makePlayer(with: heldBuzz(points: limit)) }
        XCTAssertEqual(channel.compilations, 3, "\(limit + 1) elements: compiled each time")
        XCTAssertLessThan(channel.program(for: heldBuzz(points: limit)).commands.count, 10, "a short program all the same")
    }

    /// New content is compiled outside the engine's lock, which the timing thread takes to run
    /// every actuator's commands; a caller holding the lock compiles under it as before, and a
    /// program compiled ahead is not used once the engine's settings changed.
    func testNewContentIsCompiledOutsideTheEnginesLock() throws {
        let rig = EngineRig(statusPollInterval: nil)
        try rig.engine.start()
        let channel = try XCTUnwrap(rig.engine.channels.first)
        _ = try rig.engine.makePlayer(with: TestPatterns.buzz(duration: 1))
        XCTAssertEqual(channel.compilations, 1)
        XCTAssertEqual(channel.compiledAhead, 1)
        _ = try rig.engine.makePlayer(with: TestPatterns.buzz(duration: 1))
        XCTAssertEqual(channel.compilations, 1, "kept: nothing compiled, ahead or not")

        try rig.engine.locked { _ = try rig.engine.makePlayer(with: TestPatterns.buzz(duration: 2)) }
        XCTAssertEqual(channel.compilations, 2)
        XCTAssertEqual(channel.compiledAhead, 1, "the caller held the lock: compiled under it")

        let pattern = TestPatterns.buzz(duration: 3)
        let ahead = rig.engine.compileAhead(pattern, for: [channel])
        XCTAssertNotNil(ahead[channel.name])
        rig.engine.playsHapticsOnly = true
        let program = rig.engine.locked { rig.engine.compile(pattern, for: channel, ahead: ahead[channel.name]) }
        XCTAssertEqual(channel.compiledAhead, 1, "compiled ahead under other settings: not used")
        XCTAssertEqual(program, rig.engine.locked { channel.compiler.compile(pattern) })
    }

    func testApplicationStopLeavesStandbyWithoutStoppedHandler() throws {
        let rig = EngineRig()
        let reasons = Collected<HapticEngine.StoppedReason>()
        rig.engine.stoppedHandler = { reasons.append($0) }
        try rig.engine.start()
        try rig.engine.makePlayer(with: TestPatterns.buzz(duration: 1)).start(atTime: 1.0)
        rig.run(until: 1.5)
        XCTAssertGreaterThan(rig.drive(at: 1.4), 0)
        let errors = Collected<(any Error)?>()
        rig.engine.stop { errors.append($0) }
        rig.assertStoppedInStandby()
        XCTAssertEqual(errors.values.count, 1)
        XCTAssertNil(errors.values.first ?? nil)
        rig.run(until: 3)
        XCTAssertEqual(rig.drive(at: 2.5), 0, "nothing plays after stop")
        XCTAssertTrue(reasons.values.isEmpty)
        XCTAssertThrowsError(try rig.engine.makePlayer(with: TestPatterns.taps(at: [0])).start(atTime: 0))
    }

    func testNotifyWhenPlayersFinishedCanStopTheEngine() throws {
        let rig = EngineRig()
        let reasons = Collected<HapticEngine.StoppedReason>()
        rig.engine.stoppedHandler = { reasons.append($0) }
        rig.engine.notifyWhenPlayersFinished = { _ in .stopEngine }
        try rig.engine.start()
        try rig.engine.makePlayer(with: TestPatterns.taps(at: [0, 0.1])).start(atTime: 1.0)
        rig.run(until: 1.05)
        XCTAssertTrue(reasons.values.isEmpty, "still playing")
        rig.run(until: 2)
        XCTAssertEqual(reasons.values, [.notifyWhenFinished])
        XCTAssertFalse(rig.engine.isRunning)
        rig.assertStoppedInStandby()
    }

    func testMutedHapticsKeepTimeWithoutOutput() throws {
        let rig = EngineRig()
        try rig.engine.start()
        rig.engine.isMutedForHaptics = true
        try rig.engine.makePlayer(with: HapticPattern(events: [TestPatterns.transient(), TestPatterns.continuous(at: 0.2, duration: 0.1)])).start(atTime: 1.0)
        rig.run(until: 2)
        XCTAssertTrue(rig.goTimes.isEmpty)
        XCTAssertTrue(rig.writes(to: 0x02).allSatisfy { $0.value == 0 })
    }

    func testPlayPatternFromAHAPData() throws {
        let rig = EngineRig()
        try rig.engine.start()
        let ahap = #"{"Version": 1, "Pattern": [{"Event": {"Time": 0.0, "EventType": "HapticContinuous", "EventDuration": 0.2, "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 1.0}]}}]}"#
        let player = try rig.engine.playPattern(from: Data(ahap.utf8))
        let start = rig.now
        rig.run(until: 1)
        XCTAssertGreaterThan(rig.drive(at: start.seconds + 0.1), 0.5)
        XCTAssertFalse(player.isPlaying)
        XCTAssertThrowsError(try rig.engine.playPattern(from: Data("{".utf8)))
    }

    func testCapabilitiesAndUnknownActuator() throws {
        let rig = EngineRig()
        XCTAssertEqual(rig.engine.actuatorNames, ["main"])
        XCTAssertEqual(rig.engine.capabilities["main"]?.kind, .lra)
        XCTAssertTrue(rig.engine.supportsHaptics)
        XCTAssertFalse(rig.engine.supportsAudio)
        XCTAssertThrowsError(try rig.engine.makePlayer(with: TestPatterns.taps(at: [0]), on: "left")) { error in
            XCTAssertEqual("\(error)", "no actuator named 'left' (known: main)")
        }
    }
}

final class EngineDriveFrequencyTests: XCTestCase {
    func testSharpnessSetsTheOpenLoopDriveFrequency() throws {
        let openLoop = DRV2605Configuration(ratings: DRV2605Ratings(kind: .lra, loop: .open, ratedVoltage: 2.0, overdriveVoltage: 2.8, resonantFrequency: 175))
        let rig = EngineRig(configuration: openLoop)
        try rig.engine.start()
        let pattern = HapticPattern(events: [TestPatterns.continuous(duration: 0.1, sharpness: 1), TestPatterns.continuous(at: 0.2, duration: 0.1, sharpness: 0)])
        try rig.engine.makePlayer(with: pattern).start(atTime: 1.0)
        rig.run(until: 2)
        let sharp = try XCTUnwrap(rig.board.chip.drive.level(at: .at(1.05)).frequency)
        let dull = try XCTUnwrap(rig.board.chip.drive.level(at: .at(1.25)).frequency)
        // 175 Hz × (0.8 + 0.4 × sharpness), within one OL_LRA_PERIOD step.
        XCTAssertEqual(sharp, 210, accuracy: 2)
        XCTAssertEqual(dull, 140, accuracy: 2)
        XCTAssertEqual(rig.scheduler.metrics.errors, 0)
    }

    func testClosedLoopRefusesADriveFrequency() throws {
        let rig = EngineRig()
        XCTAssertThrowsError(try rig.actuator.setDriveFrequency(200)) { error in
            XCTAssertEqual(error as? ActuatorError, .unsupported(actuator: "main", operation: "setting the drive frequency (200.0 Hz)"))
        }
        XCTAssertThrowsError(try rig.actuator.writePCM([0, 1])) { error in
            XCTAssertEqual("\(error)", "actuator main does not support PCM output (2 samples)")
        }
    }
}

final class EngineLifetimeTests: XCTestCase {
    func testReleasingARunningEngineReportsEngineDestroyedAndLeavesStandby() throws {
        let board = SimulatedBoard()
        let actuator = DRV2605Actuator(name: "main", driver: DRV2605(bus: board.bus, enableLine: board.enableLine, clock: board.clock), configuration: engineTestLRA)
        let scheduler = DeadlineScheduler(clock: board.clock)
        let reasons = Collected<HapticEngine.StoppedReason>()
        var engine: HapticEngine? = HapticEngine(actuators: ["main": actuator], clock: board.clock, scheduler: scheduler)
        engine?.stoppedHandler = { reasons.append($0) }
        try engine?.start()
        try engine?.makePlayer(with: TestPatterns.taps(at: [0])).start(atTime: 1.0)
        scheduler.run(until: .at(1.5))
        XCTAssertEqual(actuator.powerState, .ready)
        engine = nil
        XCTAssertEqual(reasons.values, [.engineDestroyed])
        XCTAssertEqual(actuator.powerState, .standby)
        XCTAssertEqual(board.chip.register(0x01), 0x40)
        // Pending idle timers no longer reach the released engine.
        scheduler.run(until: .at(60))
        XCTAssertEqual(actuator.powerState, .standby)
    }

    func testLeaveEngineRunningKeepsItRunning() throws {
        let rig = EngineRig()
        let finished = Collected<Bool>()
        rig.engine.notifyWhenPlayersFinished = { error in
            finished.append(error == nil)
            return .leaveEngineRunning
        }
        try rig.engine.start()
        try rig.engine.makePlayer(with: TestPatterns.taps(at: [0])).start(atTime: 1.0)
        try rig.engine.makePlayer(with: TestPatterns.taps(at: [0.2])).start(atTime: 1.0)
        rig.run(until: 2)
        XCTAssertEqual(finished.values, [true], "once, when the last player finished")
        XCTAssertTrue(rig.engine.isRunning)
    }
}

final class EngineTimingThreadTests: XCTestCase {
    /// The same engine on the scheduler's own thread: players started and cancelled from the test
    /// thread while actions run on the timing thread. The test thread moves virtual time on in
    /// small steps (the timing thread spins to each deadline on the clock).
    func testPlayersOnTheTimingThread() throws {
        let rig = EngineRig()
        try rig.engine.start()
        rig.scheduler.startThread()
        defer { rig.scheduler.stopThread() }
        let finished = Collected<Bool>()
        let player = try rig.engine.makeAdvancedPlayer(with: TestPatterns.taps(at: [0, 0.2]))
        player.completionHandler = { finished.append($0 == nil) }
        try player.start(atTime: 1.0)
        let cancelled = try rig.engine.makePlayer(with: TestPatterns.buzz(duration: 10))
        try cancelled.start(atTime: 50)
        try cancelled.cancel()
        while finished.values.isEmpty, rig.now < .at(5) {
            rig.board.clock.advance(by: .microseconds(50))
        }
        rig.scheduler.stopThread()
        XCTAssertEqual(finished.values, [true])
        // Time races ahead of the timing thread here, so a tap may be too late and dropped.
        XCTAssertEqual(rig.goTimes.count + rig.scheduler.metrics.droppedLate, 2)
        XCTAssertEqual(rig.scheduler.metrics.errors, 0)
        XCTAssertEqual(rig.board.chip.register(0x02), 0)
        XCTAssertFalse(cancelled.isPlaying)
    }
}
