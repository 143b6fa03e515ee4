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
