import ActuatorHAL
import Foundation
import HardwareMocks
import XCTest
@testable import HapticRuntime

final class PowerTests: XCTestCase {
    /// Plays one tap at engine time 1 s with the chip in `state` beforehand; returns the rig.
    private func playTap(from state: PowerState) throws -> EngineRig {
        let rig = EngineRig()
        try rig.engine.start()
        switch state {
        case .off: break
        case .standby: try rig.engine.wakeActuators()
        case .ready: try rig.engine.prepareActuators()
        }
        XCTAssertEqual(rig.actuator.powerState, state)
        try rig.engine.makePlayer(with: TestPatterns.taps(at: [0])).start(atTime: 1.0)
        rig.run(until: 1.5)
        return rig
    }

    func testFirstEventLandsOnTimeFromEveryPowerState() throws {
        for state in [PowerState.off, .standby, .ready] {
            let rig = try playTap(from: state)
            let go = try XCTUnwrap(rig.goTimes.first, "\(state)")
            XCTAssertLessThanOrEqual(abs((go - .at(1.0)).secondsValue), oneWrite.secondsValue, "from \(state): GO at \(go)")
            let automatic = rig.engine.powerTransitions.filter(\.automatic).map(\.report.transition)
            switch state {
            case .off: XCTAssertEqual(automatic, [.wake, .prepare])
            case .standby: XCTAssertEqual(automatic, [.prepare])
            case .ready: XCTAssertEqual(automatic, [])
            }
            // Each automatic transition finished before the event it was for.
            for recorded in rig.engine.powerTransitions where recorded.automatic {
                XCTAssertFalse(recorded.report.overran, "\(recorded.report)")
            }
        }
    }

    func testWakeStartsAheadByTheBudgets() throws {
        let rig = try playTap(from: .off)
        // EN rose at least the wake and prepare budgets before the deadline.
        let enableRise = try XCTUnwrap(rig.board.bus.log.first?.time)
        let ahead = MonotonicInstant.at(1.0) - enableRise
        XCTAssertGreaterThanOrEqual(ahead, rig.actuator.budget(for: .prepare))
        XCTAssertLessThanOrEqual(ahead, rig.actuator.budget(for: .wake) + rig.actuator.budget(for: .prepare) + .milliseconds(1))
    }

    func testStartAtZeroWaitsForThePowerUp() throws {
        let rig = EngineRig()
        try rig.engine.start()
        let requested = rig.now
        try rig.engine.makePlayer(with: TestPatterns.taps(at: [0])).start(atTime: 0)
        rig.run(until: 1)
        let go = try XCTUnwrap(rig.goTimes.first)
        XCTAssertGreaterThan(go - requested, rig.actuator.budget(for: .wake), "the tap waited for the chip to wake")
        XCTAssertLessThan(go - requested, .milliseconds(10))
        XCTAssertEqual(rig.scheduler.metrics.droppedLate, 0)
    }

    func testIdleTimeoutsGoToStandbyThenOff() throws {
        let rig = EngineRig(idleTimeouts: IdleTimeouts(standby: .seconds(2), sleep: .seconds(30)))
        try rig.engine.start()
        try rig.engine.makePlayer(with: TestPatterns.buzz(duration: 0.2)).start(atTime: 1.0)
        rig.run(until: 3.1)
        XCTAssertEqual(rig.actuator.powerState, .ready, "2 s have not passed since the end at 1.2 s")
        rig.run(until: 3.3)
        XCTAssertEqual(rig.actuator.powerState, .standby)
        rig.assertStoppedInStandby()
        rig.run(until: 31.1)
        XCTAssertEqual(rig.actuator.powerState, .standby)
        rig.run(until: 31.3)
        XCTAssertEqual(rig.actuator.powerState, .off)
        XCTAssertFalse(rig.board.chip.isEnabled)
        let automatic = rig.engine.powerTransitions.filter(\.automatic).map(\.report.transition)
        XCTAssertEqual(automatic, [.wake, .prepare, .standby, .sleep])
    }

    func testNewContentCancelsTheIdleTimers() throws {
        let rig = EngineRig(idleTimeouts: IdleTimeouts(standby: .seconds(1), sleep: .seconds(2)))
        try rig.engine.start()
        try rig.engine.makePlayer(with: TestPatterns.taps(at: [0])).start(atTime: 1.0)
        rig.run(until: 1.9)
        try rig.engine.makePlayer(with: TestPatterns.buzz(duration: 1.5)).start(atTime: 2.0)
        rig.run(until: 3.4)
        XCTAssertEqual(rig.actuator.powerState, .ready, "no standby while the buzz plays")
        XCTAssertGreaterThan(rig.drive(at: 3.3), 0)
    }

    func testExplicitSleepWinsOverIdleTimers() throws {
        let rig = EngineRig()
        try rig.engine.start()
        try rig.engine.makePlayer(with: TestPatterns.taps(at: [0])).start(atTime: 1.0)
        rig.run(until: 1.5)
        try rig.engine.sleepActuators()
        XCTAssertEqual(rig.actuator.powerState, .off)
        let count = rig.engine.powerTransitions.count
        rig.run(until: 40)
        XCTAssertEqual(rig.engine.powerTransitions.count, count, "no automatic transition after an explicit sleep")
        XCTAssertEqual(rig.engine.powerTransitions.last?.automatic, false)
        XCTAssertEqual(rig.engine.powerTransitions.last?.report.transition, .sleep)
    }

    func testExplicitPrepareFallsBackToStandbyAfterTheTimeout() throws {
        let rig = EngineRig(idleTimeouts: IdleTimeouts(standby: .seconds(2), sleep: .seconds(30)))
        try rig.engine.prepareActuators()
        XCTAssertEqual(rig.actuator.powerState, .ready)
        XCTAssertEqual(rig.actuator.preparedMode, .romSequence)
        rig.run(until: 2.5)
        XCTAssertEqual(rig.actuator.powerState, .standby)
    }

    func testAutoShutdownStopsTheEngineAndRestartsOnDemand() throws {
        let rig = EngineRig(idleTimeouts: IdleTimeouts(standby: .seconds(1), sleep: .seconds(2)))
        let reasons = Collected<HapticEngine.StoppedReason>()
        rig.engine.stoppedHandler = { reasons.append($0) }
        rig.engine.isAutoShutdownEnabled = true
        try rig.engine.start()
        try rig.engine.makePlayer(with: TestPatterns.taps(at: [0])).start(atTime: 1.0)
        rig.run(until: 5)
        XCTAssertEqual(reasons.values, [.idleTimeout])
        XCTAssertFalse(rig.engine.isRunning)
        try rig.engine.makePlayer(with: TestPatterns.taps(at: [0])).start(atTime: 6.0)
        XCTAssertTrue(rig.engine.isRunning)
        rig.run(until: 7)
        XCTAssertEqual(rig.goTimes.count, 2)
    }
}
