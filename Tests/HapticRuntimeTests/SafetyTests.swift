import ActuatorHAL
@testable import ActuatorHALLinux
import Foundation
import HardwareMocks
import SystemPackage
import XCTest
@testable import HapticRuntime

final class SafetyTests: XCTestCase {
    func testCancelMidStreamLeavesTheChipStoppedInStandby() throws {
        let rig = EngineRig()
        try rig.engine.start()
        let player = try rig.engine.makePlayer(with: TestPatterns.buzz(duration: 1))
        try player.start(atTime: 1.0)
        rig.run(until: 1.5)
        XCTAssertGreaterThan(rig.drive(at: 1.5), 0.5)
        try player.cancel()
        XCTAssertEqual(rig.drive(at: rig.now.seconds), 0)
        rig.assertStoppedInStandby()
    }

    /// A started engine whose stopped and reset handlers record their calls.
    private func startedRigRecordingHandlers(statusPollInterval: Duration? = nil) throws -> (EngineRig, Collected<HapticEngine.StoppedReason>, Collected<Bool>) {
        // Without status polls unless asked for, so the bus traffic is the content's alone.
        let rig = EngineRig(statusPollInterval: statusPollInterval)
        let reasons = Collected<HapticEngine.StoppedReason>()
        let resets = Collected<Bool>()
        rig.engine.stoppedHandler = { reasons.append($0) }
        rig.engine.resetHandler = { resets.append(true) }
        try rig.engine.start()
        return (rig, reasons, resets)
    }

    func testBusFaultReachesHandlersAndLeavesTheChipStopped() throws {
        let (rig, reasons, resets) = try startedRigRecordingHandlers()
        let pattern = HapticPattern(events: [TestPatterns.continuous(duration: 0.5), TestPatterns.continuous(at: 0.5, duration: 0.5, intensity: 0.5)])
        let player = try rig.engine.makeAdvancedPlayer(with: pattern)
        try player.start(atTime: 1.0)
        rig.run(until: 1.3)
        // The chip stops acknowledging the next transfer, the RTP write at 1.5 s (a missing ACK is not retried).
        rig.board.bus.injectError(.noAcknowledge(bus: "sim", address: SimulatedBoard.chipAddress), onTransfer: 1)
        rig.run(until: 3)
        let failed = try XCTUnwrap(rig.board.bus.log.first { $0.error != nil })
        XCTAssertEqual(failed.time.seconds, 1.5, accuracy: 0.001)
        XCTAssertEqual(reasons.values, [.systemError])
        XCTAssertEqual(resets.values, [true], "the chip was power-cycled and re-initialised")
        XCTAssertTrue(rig.engine.isRunning, "reset as Core Haptics does: running again, players to recreate")
        XCTAssertFalse(player.isPlaying)
        XCTAssertEqual(rig.drive(at: 1.6), 0, "nothing plays after the fault")
        XCTAssertTrue(rig.writes(to: 0x02).filter { $0.end > failed.time }.allSatisfy { $0.value == 0 })
        rig.assertStoppedInStandby()
        XCTAssertEqual(rig.scheduler.metrics.errors, 1)
    }

    func testStuckBusIsADeviceLostWithENLow() throws {
        let (rig, reasons, resets) = try startedRigRecordingHandlers()
        try rig.engine.makePlayer(with: TestPatterns.buzz(duration: 1)).start(atTime: 1.0)
        rig.run(until: 1.3)
        rig.board.bus.isStuck = true
        rig.run(until: 3)
        XCTAssertEqual(reasons.values, [.deviceLost])
        XCTAssertTrue(resets.values.isEmpty)
        XCTAssertFalse(rig.board.chip.isEnabled, "EN dropped: the output stage is off whatever the bus does")
        XCTAssertEqual(rig.drive(at: 3), 0)
    }

    func testContinuousDriveLimitCutsTheOutputAndTellsEveryone() throws {
        let rig = EngineRig(maximumContinuousDrive: .milliseconds(50))
        let events = Collected<DriveLimitEvent>()
        rig.engine.driveLimitHandler = { events.append($0) }
        try rig.engine.start()
        let player = try rig.engine.makeAdvancedPlayer(with: TestPatterns.buzz(duration: 0.5))
        let completions = Collected<String>()
        player.completionHandler = { completions.append($0.map { "\($0)" } ?? "nil") }
        try player.start(atTime: 1.0)
        rig.run(until: 2)
        XCTAssertGreaterThan(rig.drive(at: 1.04), 0.5)
        XCTAssertEqual(rig.drive(at: 1.052), 0)
        let event = try XCTUnwrap(rig.engine.driveLimitEvents.first)
        XCTAssertEqual(event.limit, .milliseconds(50))
        XCTAssertEqual((event.stoppedAt - event.driveStart).secondsValue, 0.05, accuracy: 0.001)
        XCTAssertEqual(events.values, [event])
        XCTAssertEqual(completions.values.count, 1)
        XCTAssertTrue(completions.values[0].contains("continuous drive stopped"), completions.values[0])
        XCTAssertFalse(player.isPlaying)
    }

    func testTerminationGuardStopsTheEngineAndExitsWith143() throws {
        let rig = EngineRig()
        try rig.engine.start()
        try rig.engine.makePlayer(with: TestPatterns.buzz(duration: 1)).start(atTime: 1.0)
        rig.run(until: 1.5)
        XCTAssertGreaterThan(rig.drive(at: 1.5), 0.5)
        let exited = expectation(description: "exit")
        let statuses = Collected<Int32>()
        let guardian = TerminationGuard.install(stop: rig.engine.stopAtOnce) { status in
            statuses.append(status)
            exited.fulfill()
        }
        defer { guardian.uninstall() }
        // Directed at the guard's thread: other threads of the test process do not block SIGTERM.
        pthread_kill(try XCTUnwrap(guardian.signalThread), SIGTERM)
        wait(for: [exited], timeout: 10)
        XCTAssertEqual(statuses.values, [143])
        rig.assertStoppedInStandby()
        XCTAssertFalse(rig.engine.isRunning)
    }
}

/// Faults the chip reports while playing, and what the engine reads to know when output ends.
final class FaultMonitoringTests: XCTestCase {
    func testAnOverTemperatureWhilePlayingStopsTheEngineWithATypedFault() throws {
        let rig = EngineRig(statusPollInterval: .milliseconds(20))
        let reasons = Collected<HapticEngine.StoppedReason>()
        rig.engine.stoppedHandler = { reasons.append($0) }
        try rig.engine.start()
        let player = try rig.engine.makePlayer(with: TestPatterns.buzz(duration: 1))
        try player.start(atTime: 0.1)
        rig.run(until: 0.5)
        XCTAssertGreaterThan(rig.drive(at: 0.5), 0.5)
        // The die overheats: the chip stops its output and sets OVER_TEMP, which clears when read.
        rig.board.chip.injectOverTemperature()
        let injected = rig.now
        rig.run(until: 0.6)
        XCTAssertEqual(reasons.values, [.systemError])
        guard case .actuatorFault("main", let faults)? = rig.engine.lastFault as? HapticEngineError else {
            return XCTFail("\(String(describing: rig.engine.lastFault))")
        }
        XCTAssertEqual(faults, [.overTemperature])
        XCTAssertFalse(player.isPlaying)
        // Seen by the next poll: no RTP write after it.
        let reads = rig.board.bus.log.filter { $0.time > injected && $0.operations == [.write([0x00]), .read(count: 1)] }
        let seenAt = try XCTUnwrap(reads.first).time
        XCTAssertLessThanOrEqual(seenAt - injected, .milliseconds(20))
        XCTAssertTrue(rig.writes(to: 0x02).filter { $0.end > seenAt }.allSatisfy { $0.value == 0 }, "no drive after the fault")
        rig.assertStoppedInStandby()
    }

    func testARomEffectPlaysUntilTheChipClearsGoNotForAnEstimate() throws {
        // Effect 47 (Buzz 1) lasts 300 ms on the simulated chip; the compiler estimates 60 ms.
        let rig = EngineRig()
        let ended = Collected<MonotonicInstant>()
        try rig.engine.start()
        var event = TestPatterns.transient()
        event.romCue = ROMCue(group: 1, lraSteps: [.effect(47)], ermSteps: [.effect(47)], duration: 0.06)
        let player = try rig.engine.makeAdvancedPlayer(with: HapticPattern(events: [event]))
        let clock = rig.board.clock
        player.completionHandler = { _ in ended.append(clock.now) }
        try player.start(atTime: 0.1)
        rig.run(until: 1)
        let go = try XCTUnwrap(rig.goTimes.first)
        XCTAssertGreaterThan(rig.drive(at: go.seconds + 0.25), 0.5, "still buzzing 250 ms in: not stopped after the 60 ms estimate")
        let end = try XCTUnwrap(ended.values.first)
        XCTAssertGreaterThanOrEqual(end - go, .milliseconds(300), "the player ended when GO cleared")
        XCTAssertLessThanOrEqual(end - go, .milliseconds(300) + HapticEngine.sequencePollInterval + .milliseconds(1))
        XCTAssertEqual(rig.drive(at: 1), 0)
    }

    /// The read that watches a ROM sequence play out is the last look at a short effect (status
    /// polls are 100 ms apart by default, a click lasts tens of milliseconds): a fault it sees is the
    /// engine's to handle, as a poll's is, not dropped with the status it came in.
    func testAFaultSeenWhileARomEffectPlaysOutIsReported() throws {
        // Closures, not unapplied method references: Swift 6.0 (trixie's swiftlang) takes those
        // for a capture of a non-Sendable model.
        let injections: [(ActuatorFault, (DRV2605Model) -> Void)] = [(.overTemperature, { $0.injectOverTemperature() }), (.overCurrent, { $0.injectOverCurrent() })]
        for (fault, inject) in injections {
            let rig = EngineRig(statusPollInterval: nil)
            let reasons = Collected<HapticEngine.StoppedReason>()
            rig.engine.stoppedHandler = { reasons.append($0) }
            try rig.engine.start()
            var event = TestPatterns.transient()
            // Effect 47 lasts 300 ms on the simulated chip; the compiler estimates 60 ms, so GO is read
            // every 10 ms from then on.
            event.romCue = ROMCue(group: 1, lraSteps: [.effect(47)], ermSteps: [.effect(47)], duration: 0.06)
            let player = try rig.engine.makeAdvancedPlayer(with: HapticPattern(events: [event]))
            try player.start(atTime: 0.1)
            rig.run(until: 0.25)
            inject(rig.board.chip)
            rig.run(until: 1)
            XCTAssertEqual(reasons.values, [.systemError], "\(fault)")
            guard case .actuatorFault("main", let faults)? = rig.engine.lastFault as? HapticEngineError else {
                XCTFail("\(fault): \(String(describing: rig.engine.lastFault))")
                continue
            }
            XCTAssertEqual(faults, [fault])
            XCTAssertFalse(player.isPlaying)
            rig.assertStoppedInStandby()
        }
    }

    func testAWriteThatFailsWhileMutingIsAFaultNotSwallowed() throws {
        let rig = EngineRig(statusPollInterval: nil)
        let reasons = Collected<HapticEngine.StoppedReason>()
        rig.engine.stoppedHandler = { reasons.append($0) }
        try rig.engine.start()
        try rig.engine.makePlayer(with: TestPatterns.buzz(duration: 1)).start(atTime: 0.1)
        rig.run(until: 0.5)
        rig.board.bus.injectError(.noAcknowledge(bus: "sim", address: SimulatedBoard.chipAddress), onTransfer: 1)
        rig.engine.isMutedForHaptics = true
        XCTAssertEqual(reasons.values, [.systemError])
        XCTAssertNotNil(rig.engine.lastFault)
        XCTAssertEqual(rig.drive(at: rig.now.seconds), 0)
    }
}
