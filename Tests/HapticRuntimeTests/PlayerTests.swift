import ActuatorHAL
import Foundation
import HardwareMocks
import XCTest
@testable import HapticRuntime

final class PlayerTests: XCTestCase {
    func testScheduledStopCutsTheOutputAndCompletes() throws {
        let rig = EngineRig()
        try rig.engine.start()
        let player = try rig.engine.makeAdvancedPlayer(with: TestPatterns.buzz(duration: 1))
        let completions = Collected<Bool>()
        player.completionHandler = { completions.append($0 == nil) }
        try player.start(atTime: 1.0)
        try player.stop(atTime: 1.2)
        rig.run(until: 3)
        XCTAssertGreaterThan(rig.drive(at: 1.19), 0.5)
        XCTAssertEqual(rig.drive(at: 1.2 + 0.001), 0)
        XCTAssertEqual(completions.values, [true])
        let lastNonZero = try XCTUnwrap(rig.writes(to: 0x02).last { $0.value != 0 })
        XCTAssertLessThan(lastNonZero.end, .at(1.2))
        rig.assertStoppedInStandby()
    }

    func testCancelDropsPendingCommandsWithoutCompletion() throws {
        let rig = EngineRig()
        try rig.engine.start()
        let player = try rig.engine.makeAdvancedPlayer(with: TestPatterns.taps(at: [0, 0.1, 0.2]))
        let completions = Collected<Bool>()
        player.completionHandler = { completions.append($0 == nil) }
        try player.start(atTime: 1.0)
        rig.run(until: 1.05)
        try player.cancel()
        rig.run(until: 2)
        XCTAssertEqual(rig.goTimes.count, 1)
        XCTAssertTrue(completions.values.isEmpty)
        XCTAssertFalse(player.isPlaying)
    }

    func testPauseAndResumeContinueWhereTheyLeftOff() throws {
        let rig = EngineRig()
        try rig.engine.start()
        let player = try rig.engine.makeAdvancedPlayer(with: TestPatterns.taps(at: [0, 0.1, 0.2, 0.3]))
        try player.start(atTime: 1.0)
        try player.pause(atTime: 1.15)
        rig.run(until: 1.5)
        try player.resume(atTime: 2.0)
        rig.run(until: 3)
        let times = rig.goTimes.map { ($0.seconds * 1000).rounded() / 1000 }
        // 0 and 0.1 before the pause; 0.2 and 0.3 resume 0.05 s and 0.15 s after 2.0.
        XCTAssertEqual(times, [1.0, 1.1, 2.05, 2.15])
    }

    func testSeekBeforeStartSkipsTheBeginning() throws {
        let rig = EngineRig()
        try rig.engine.start()
        let player = try rig.engine.makeAdvancedPlayer(with: TestPatterns.taps(at: [0, 0.1, 0.2]))
        try player.seek(toOffset: 0.15)
        try player.start(atTime: 1.0)
        rig.run(until: 2)
        XCTAssertEqual(rig.goTimes.map { ($0.seconds * 1000).rounded() / 1000 }, [1.05])
    }

    func testSeekWhilePlayingIntoAContinuousEventResumesItsLevel() throws {
        let rig = EngineRig()
        try rig.engine.start()
        let pattern = HapticPattern(events: [TestPatterns.transient(), TestPatterns.continuous(at: 0.5, duration: 0.5)])
        let player = try rig.engine.makeAdvancedPlayer(with: pattern)
        try player.start(atTime: 1.0)
        rig.run(until: 1.1)
        try player.seek(toOffset: 0.7)
        let seekStart = rig.now
        rig.run(until: 1.2)
        XCTAssertGreaterThan(rig.drive(at: seekStart.seconds + 0.01), 0.5, "the buzz plays from its middle")
        rig.run(until: 2)
        XCTAssertEqual(rig.drive(at: seekStart.seconds + 0.31), 0, "and ends 0.3 s later")
        XCTAssertEqual(rig.goTimes.count, 1)
    }

    func testSeekPastTheEndFinishes() throws {
        let rig = EngineRig()
        try rig.engine.start()
        let player = try rig.engine.makeAdvancedPlayer(with: TestPatterns.buzz(duration: 0.5))
        let completions = Collected<Bool>()
        player.completionHandler = { completions.append($0 == nil) }
        try player.start(atTime: 1.0)
        rig.run(until: 1.1)
        try player.seek(toOffset: 5)
        XCTAssertFalse(player.isPlaying)
        XCTAssertEqual(completions.values, [true])
        XCTAssertEqual(rig.board.chip.register(0x02), 0)
    }

    func testLoopRepeatsAtLoopEnd() throws {
        let rig = EngineRig()
        try rig.engine.start()
        let player = try rig.engine.makeAdvancedPlayer(with: TestPatterns.taps(at: [0, 0.05]))
        player.loopEnabled = true
        player.loopEnd = 0.1
        try player.start(atTime: 1.0)
        try player.stop(atTime: 1.32)
        rig.run(until: 2)
        XCTAssertEqual(rig.goTimes.map { ($0.seconds * 1000).rounded() / 1000 }, [1.0, 1.05, 1.1, 1.15, 1.2, 1.25, 1.3])
    }

    func testPlaybackRateScalesTimes() throws {
        let rig = EngineRig()
        try rig.engine.start()
        let player = try rig.engine.makeAdvancedPlayer(with: TestPatterns.taps(at: [0, 0.2, 0.4]))
        try player.setPlaybackRate(2)
        try player.start(atTime: 1.0)
        rig.run(until: 2)
        XCTAssertEqual(rig.goTimes.map { ($0.seconds * 1000).rounded() / 1000 }, [1.0, 1.1, 1.2])
        XCTAssertThrowsError(try player.setPlaybackRate(0))
    }

    func testSendParametersChangesOnlyLaterCommands() throws {
        let reference = EngineRig()
        try reference.engine.start()
        try reference.engine.makePlayer(with: TestPatterns.buzz(duration: 0.4)).start(atTime: 1.0)
        reference.run(until: 2)

        let rig = EngineRig()
        try rig.engine.start()
        let player = try rig.engine.makePlayer(with: TestPatterns.buzz(duration: 0.4))
        try player.start(atTime: 1.0)
        try player.sendParameters([DynamicParameter(.hapticIntensityControl, value: 0.5, time: 0)], atTime: 1.2)
        rig.run(until: 2)

        let before = rig.writes(to: 0x02).filter { $0.end < .at(1.2) }
        let referenceBefore = reference.writes(to: 0x02).filter { $0.end < .at(1.2) }
        XCTAssertEqual(before.map(\.value), referenceBefore.map(\.value))
        XCTAssertEqual(rig.drive(at: 1.1), reference.drive(at: 1.1))
        let ratio = rig.drive(at: 1.3) / reference.drive(at: 1.3)
        XCTAssertEqual(ratio, 0.5, accuracy: 0.05)
    }

    func testParameterCurveShapesTheRest() throws {
        let rig = EngineRig()
        try rig.engine.start()
        let player = try rig.engine.makePlayer(with: TestPatterns.buzz(duration: 0.4))
        try player.start(atTime: 1.0)
        let curve = ParameterCurve(.hapticIntensityControl, time: 0, controlPoints: [ControlPoint(time: 0, value: 1), ControlPoint(time: 0.2, value: 0)])
        try player.scheduleParameterCurve(curve, atTime: 1.1)
        rig.run(until: 2)
        let full = rig.drive(at: 1.05)
        XCTAssertGreaterThan(full, 0.5)
        XCTAssertEqual(rig.drive(at: 1.2) / full, 0.5, accuracy: 0.1)
        XCTAssertEqual(rig.drive(at: 1.35), 0)
    }

    func testOverlappingPlayersSumAndClamp() throws {
        let single = EngineRig()
        try single.engine.start()
        try single.engine.makePlayer(with: TestPatterns.buzz(duration: 0.3, intensity: 0.3)).start(atTime: 1.0)
        single.run(until: 2)
        let alone = single.drive(at: 1.15)

        let rig = EngineRig()
        try rig.engine.start()
        try rig.engine.makePlayer(with: TestPatterns.buzz(duration: 0.3, intensity: 0.3)).start(atTime: 1.0)
        try rig.engine.makePlayer(with: TestPatterns.buzz(duration: 0.3, intensity: 0.3)).start(atTime: 1.1)
        rig.run(until: 2)
        XCTAssertEqual(rig.drive(at: 1.05), alone, accuracy: 0.01)
        XCTAssertEqual(rig.drive(at: 1.15), min(1, 2 * alone), accuracy: 0.01)
        XCTAssertEqual(rig.drive(at: 1.35), alone, accuracy: 0.01, "the first ended, the second goes on")
        XCTAssertEqual(rig.drive(at: 1.45), 0)

        let loud = EngineRig()
        try loud.engine.start()
        try loud.engine.makePlayer(with: TestPatterns.buzz(duration: 0.3)).start(atTime: 1.0)
        try loud.engine.makePlayer(with: TestPatterns.buzz(duration: 0.3)).start(atTime: 1.0)
        loud.run(until: 2)
        XCTAssertEqual(loud.drive(at: 1.1), 1, accuracy: 0.01, "clamped at full scale")
    }

    func testMutedPlayerLeavesTheOtherAudible() throws {
        let rig = EngineRig()
        try rig.engine.start()
        let muted = try rig.engine.makePlayer(with: TestPatterns.buzz(duration: 0.3, intensity: 0.3))
        muted.isMuted = true
        try muted.start(atTime: 1.0)
        try rig.engine.makePlayer(with: TestPatterns.buzz(duration: 0.1, intensity: 0.3)).start(atTime: 1.0)
        rig.run(until: 2)
        XCTAssertGreaterThan(rig.drive(at: 1.05), 0)
        XCTAssertEqual(rig.drive(at: 1.2), 0)
    }

    func testPatternOnANamedActuatorOrOnAll() throws {
        let board = SimulatedBoard()
        let secondBus = SimulatedI2CBus(name: "sim2", clock: board.clock)
        let secondLine = SimulatedOutputLine(name: "EN2", initial: .low, clock: board.clock)
        let secondChip = DRV2605Model(clock: board.clock, enableLine: secondLine)
        secondBus.attach(secondChip, at: SimulatedBoard.chipAddress)
        let left = DRV2605Actuator(name: "left", driver: DRV2605(bus: board.bus, enableLine: board.enableLine, clock: board.clock), configuration: engineTestLRA)
        let right = DRV2605Actuator(name: "right", driver: DRV2605(bus: secondBus, enableLine: secondLine, clock: board.clock), configuration: engineTestLRA)
        let scheduler = DeadlineScheduler(clock: board.clock)
        let engine = HapticEngine(actuators: ["left": left, "right": right], clock: board.clock, scheduler: scheduler)
        try engine.start()
        try engine.makePlayer(with: TestPatterns.buzz(duration: 0.1), on: "right").start(atTime: 1.0)
        try engine.makePlayer(with: TestPatterns.buzz(duration: 0.1)).start(atTime: 2.0)
        scheduler.run(until: .at(3))
        XCTAssertEqual(board.chip.drive.level(at: .at(1.05)).amplitude, 0)
        XCTAssertGreaterThan(secondChip.drive.level(at: .at(1.05)).amplitude, 0.5)
        XCTAssertGreaterThan(board.chip.drive.level(at: .at(2.05)).amplitude, 0.5)
        XCTAssertGreaterThan(secondChip.drive.level(at: .at(2.05)).amplitude, 0.5)
    }

    func testAKeptPlayerHoldsOnlyTheControlsStillToCome() throws {
        let rig = EngineRig()
        try rig.engine.start()
        let player = try rig.engine.makeAdvancedPlayer(with: TestPatterns.buzz(duration: 1))
        for press in 0..<200 {
            let at = 1.0 + Double(press) * 0.1
            try player.start(atTime: at)
            try player.stop(atTime: at + 0.05)
            XCTAssertEqual(player.scheduledControlCount, 1, "press \(press)")
            rig.run(until: at + 0.09)
            XCTAssertEqual(rig.drive(at: at + 0.07), 0, "stopped at its time")
        }
        XCTAssertEqual(player.scheduledControlCount, 0, "each stop forgotten once it ran")
        let now = rig.now.seconds
        try player.start(atTime: now + 0.1)
        try player.pause(atTime: now + 0.3)
        rig.run(until: now + 0.4)
        XCTAssertEqual(player.scheduledControlCount, 0, "paused")
        try player.resume(atTime: now + 1)
        try player.stop(atTime: now + 2)
        XCTAssertEqual(player.scheduledControlCount, 2)
        try player.cancel()
        XCTAssertEqual(player.scheduledControlCount, 0)
        // Paused, the player had left the actuator to its idle timeouts.
        rig.run(until: now + 10)
        rig.assertStoppedInStandby()
    }
}

final class PlayerLoopParameterTests: XCTestCase {
    /// A player keeps the plan it made (`SegmentPlan`) for the next start with the same setting;
    /// a start with another loop, rate or offset, or after a parameter, plays what that asks for.
    func testAPlayerStartedAgainPlaysWhatEachStartAsksFor() throws {
        let rig = EngineRig(statusPollInterval: nil)
        try rig.engine.start()
        let player = try rig.engine.makeAdvancedPlayer(with: TestPatterns.taps(at: [0, 0.1]))
        func taps(from start: Double, until end: Double) -> [Double] {
            rig.goTimes.map { (($0.seconds - start) * 1000).rounded() / 1000 }.filter { $0 >= 0 && $0 < end - start }
        }
        // The ROM effect each tap played: WAVESEQ1 as written before its GO.
        func effects(from start: Double, until end: Double) -> [UInt8?] {
            rig.goTimes.filter { $0 >= .at(start) && $0 < .at(end) }.map { go in rig.writes(to: 0x04).last { $0.end <= go }?.value }
        }
        try player.start(atTime: 1.0)
        rig.run(until: 2)
        try player.start(atTime: 2.0)
        rig.run(until: 3)
        XCTAssertEqual(taps(from: 1, until: 2), [0, 0.1])
        XCTAssertEqual(taps(from: 2, until: 3), [0, 0.1], "the kept plan plays as the first")

        player.loopEnabled = true
        player.loopEnd = 0.25
        try player.start(atTime: 3.0)
        try player.stop(atTime: 3.55)
        rig.run(until: 4)
        XCTAssertEqual(taps(from: 3, until: 4), [0, 0.1, 0.25, 0.35, 0.5])

        player.loopEnabled = false
        try player.setPlaybackRate(2)
        try player.start(atTime: 4.0)
        rig.run(until: 5)
        XCTAssertEqual(taps(from: 4, until: 5), [0, 0.05])

        try player.setPlaybackRate(1)
        try player.seek(toOffset: 0.05)
        try player.start(atTime: 5.0)
        rig.run(until: 6)
        XCTAssertEqual(taps(from: 5, until: 6), [0.05])

        try player.start(atTime: 6.0)
        try player.sendParameters([DynamicParameter(.hapticIntensityControl, value: 0.5, time: 0)], atTime: 6.05)
        rig.run(until: 7)
        try player.start(atTime: 7.0)
        rig.run(until: 8)
        XCTAssertEqual(taps(from: 6, until: 7), [0, 0.1])
        XCTAssertEqual(taps(from: 7, until: 8), [0, 0.1])
        let full = effects(from: 2, until: 3), halved = effects(from: 6, until: 7)
        XCTAssertEqual(halved.first, full.first)
        XCTAssertNotEqual(halved.last, full.last, "the second tap after the parameter is softer")
        XCTAssertEqual(effects(from: 7, until: 8), halved, "a restart after a parameter plays the recompiled pattern")
        rig.run(until: 11)
        rig.assertStoppedInStandby()
    }

    func testASentParameterStaysInForceWhenTheLoopRestarts() throws {
        let rig = EngineRig()
        try rig.engine.start()
        let player = try rig.engine.makeAdvancedPlayer(with: TestPatterns.buzz(duration: 0.1))
        player.loopEnabled = true
        try player.start(atTime: 1.0)
        try player.sendParameters([DynamicParameter(.hapticIntensityControl, value: 0.5, time: 0)], atTime: 1.05)
        try player.stop(atTime: 1.35)
        rig.run(until: 2)
        let full = rig.drive(at: 1.02)
        XCTAssertGreaterThan(full, 0.5)
        for time in [1.07, 1.15, 1.25, 1.32] {
            XCTAssertEqual(rig.drive(at: time) / full, 0.5, accuracy: 0.05, "at \(time) s")
        }
        XCTAssertEqual(rig.drive(at: 1.4), 0)
    }

    func testAPlayerSentAValueEveryFrameKeepsOnlyWhatIsStillHeard() throws {
        let rig = EngineRig()
        try rig.engine.start()
        let player = try rig.engine.makePlayer(with: TestPatterns.buzz(duration: 30))
        try player.start(atTime: 1.0)
        rig.run(until: 1.1)
        // Ten seconds of a game's 60 Hz control: the intensity steps through 0.1 ... 1.
        for frame in 0..<600 {
            try player.sendParameters([DynamicParameter(.hapticIntensityControl, value: Double(frame % 10 + 1) / 10, time: 0)], atTime: 0)
            rig.run(until: rig.now.seconds + 1.0 / 60)
        }
        XCTAssertEqual(player.sentSourceCount, 1, "only the value in force")
        // The last value (1.0, frame 599) plays on, a value sent ahead is kept until it is heard.
        let full = rig.drive(at: rig.now.seconds - 0.005)
        try player.sendParameters([DynamicParameter(.hapticIntensityControl, value: 0.5, time: 0)], atTime: rig.now.seconds + 0.5)
        XCTAssertEqual(player.sentSourceCount, 2)
        let sentAt = rig.now.seconds
        rig.run(until: sentAt + 1)
        XCTAssertEqual(rig.drive(at: sentAt + 0.25), full, accuracy: 0.01)
        XCTAssertEqual(rig.drive(at: sentAt + 0.75) / full, 0.5, accuracy: 0.05)
        try player.stop(atTime: 0)
        rig.run(until: rig.now.seconds + 1)
        rig.assertStoppedInStandby()
    }

    func testForgettingKeepsWhatIsInForceAndWhatIsToCome() {
        var sent = SentParameters()
        sent.add(DynamicParameter(.hapticIntensityControl, value: 0.2, time: 0.1))
        sent.add(DynamicParameter(.hapticIntensityControl, value: 0.4, time: 0.3))
        sent.add(DynamicParameter(.hapticIntensityControl, value: 0.9, time: 0.8))
        sent.add(DynamicParameter(.hapticSharpnessControl, value: 0.7, time: 0.2))
        sent.add(ParameterCurve(.hapticSharpnessControl, time: 0.4, controlPoints: [ControlPoint(time: 0, value: 0), ControlPoint(time: 0.2, value: 1)]))
        sent.add(ParameterCurve(.hapticAttackTimeControl, time: 0.1, controlPoints: [ControlPoint(time: 0, value: 1), ControlPoint(time: 0.1, value: 0.5)]))
        let before = ControlTimeline(parameters: sent.parameters, curves: sent.curves)
        sent.forget(before: 0.5)
        let after = ControlTimeline(parameters: sent.parameters, curves: sent.curves)
        for id in [DynamicParameterID.hapticIntensityControl, .hapticSharpnessControl, .hapticAttackTimeControl] {
            for time in stride(from: 0.5, through: 1.0, by: 0.05) {
                XCTAssertEqual(after.value(of: id, at: time), before.value(of: id, at: time), accuracy: 1e-12, "\(id) at \(time)")
            }
        }
        XCTAssertEqual(sent.parameters.map(\.time).sorted(), [0, 0, 0.8], "intensity 0.4 and the ended curve's 0.5 held from 0; 0.9 to come")
        XCTAssertEqual(sent.curves.map(\.time), [0.4], "the sharpness curve still runs")
        XCTAssertEqual(after.value(of: .hapticIntensityControl, at: 0), 0.4, "a seek back plays the latest value")
    }

    func testARunningCurveContinuesIntoTheNextPass() {
        var sent = SentParameters()
        sent.add(DynamicParameter(.hapticSharpnessControl, value: 0.3, time: 0.02))
        sent.add(ParameterCurve(.hapticIntensityControl, time: 0.05, controlPoints: [ControlPoint(time: 0, value: 1), ControlPoint(time: 0.1, value: 0)]))
        sent.add(DynamicParameter(.hapticDecayTimeControl, value: 0.2, time: 0.15))
        sent.carryOver(loopLength: 0.1)
        let parameters = sent.parameters.sorted { $0.id.rawValue < $1.id.rawValue }
        XCTAssertEqual(parameters.map(\.id), [.hapticDecayTimeControl, .hapticSharpnessControl])
        XCTAssertEqual(parameters.map(\.value), [0.2, 0.3])
        XCTAssertEqual(parameters[0].time, 0.05, accuracy: 1e-12, "starts after the loop end: moved back by its length")
        XCTAssertEqual(parameters[1].time, 0, "in force at the loop end: held from 0")
        XCTAssertEqual(sent.curves.count, 1)
        XCTAssertEqual(sent.curves[0].time, -0.05, accuracy: 1e-12)
        let timeline = ControlTimeline(parameters: sent.parameters, curves: sent.curves)
        XCTAssertEqual(timeline.value(of: .hapticIntensityControl, at: 0), 0.5, accuracy: 1e-9)
    }
}

final class PlayerRateChangeTests: XCTestCase {
    func testARateChangeWhilePlayingAppliesFromTheCurrentPosition() throws {
        let rig = EngineRig()
        try rig.engine.start()
        let player = try rig.engine.makeAdvancedPlayer(with: TestPatterns.taps(at: [0, 0.2, 0.4]))
        try player.start(atTime: 1.0)
        rig.run(until: 1.1)
        player.playbackRate = 2
        XCTAssertEqual(player.playbackRate, 2)
        player.playbackRate = -1
        XCTAssertEqual(player.playbackRate, 2, "an invalid rate is ignored")
        rig.run(until: 2)
        // Position 0.1 at 1.1 s; the taps at 0.2 and 0.4 follow at twice the speed.
        XCTAssertEqual(rig.goTimes.map { ($0.seconds * 1000).rounded() / 1000 }, [1.0, 1.15, 1.25])
    }
}
