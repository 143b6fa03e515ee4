import ActuatorHAL
import Foundation
import HardwareMocks
import SystemPackage
import XCTest
@testable import HapticRuntime

final class ForceFeedbackProviderTests: XCTestCase {
    /// Full-scale drive reads back within one RTP step.
    private let step = 1.0 / 127

    func testRumbleUploadedPlayedAndEndingAfterItsLength() throws {
        let rig = try ForceFeedbackRig()
        let id = try rig.client.upload(TestEffects.rumble(strong: 0x8000, weak: 0x4000, length: 300))
        XCTAssertEqual(id, 0)
        try rig.client.play(effectID: id, count: 1)
        rig.run(for: 0.1)
        // One actuator: the larger of the two magnitudes.
        XCTAssertEqual(rig.drive(), 0.5, accuracy: step)
        rig.run(for: 0.3)
        XCTAssertEqual(rig.drive(), 0)
        XCTAssertEqual(rig.provider.counts.plays, 1)
    }

    /// A game waits in EVIOCSFF while its effect is planned and compiled: that happens outside
    /// the engine's lock, for an upload and for a new gain, so the other actuators' streams are
    /// not held up meanwhile.
    func testUploadsAndGainsCompileOutsideTheEnginesLock() throws {
        let rig = try ForceFeedbackRig()
        let channel = try XCTUnwrap(rig.engine.channels.first)
        let id = try rig.client.upload(TestEffects.rumble(strong: 0x8000, weak: 0, length: 0xFFFF))
        XCTAssertEqual(channel.compiledAhead, 1)
        try rig.client.play(effectID: id, count: 1)
        rig.run(for: 0.1)
        try rig.client.setGain(0x8000)
        XCTAssertEqual(channel.compiledAhead, 2)
        rig.run(for: 0.1)
        XCTAssertEqual(rig.drive(), 0.25, accuracy: step, "the playing effect continued at the new gain")
        XCTAssertEqual(channel.compilations, channel.compiledAhead)
    }

    /// A gain compiles at once only the effects that play: a stored one is compiled at the new
    /// gain when it is played, so a play after a gain does not wait for every stored effect to
    /// compile first.
    func testAGainCompilesThePlayingEffectsAtOnceAndTheOthersWhenPlayed() throws {
        let rig = try ForceFeedbackRig()
        let channel = try XCTUnwrap(rig.engine.channels.first)
        let playing = try rig.client.upload(TestEffects.rumble(strong: 0x8000, weak: 0, length: 0xFFFF))
        // Each of its own strength (within a drive step of full), so no compiled program is shared.
        let stored = try (0..<3).map { index in try rig.client.upload(TestEffects.rumble(strong: 0xFFFF - UInt16(index) * 0x100, weak: 0, length: 200)) }
        XCTAssertEqual(channel.compiledAhead, 4)
        try rig.client.play(effectID: playing, count: 1)
        rig.run(for: 0.05)
        try rig.client.setGain(0x8000)
        XCTAssertEqual(channel.compiledAhead, 5, "only the playing effect compiled with the gain")
        rig.run(for: 0.05)
        XCTAssertEqual(rig.drive(), 0.25, accuracy: step)

        try rig.client.play(effectID: playing, count: 0)
        try rig.client.play(effectID: stored[0], count: 1)
        XCTAssertEqual(channel.compiledAhead, 6, "the played effect compiled at the new gain first")
        rig.run(for: 0.05)
        XCTAssertEqual(rig.drive(), 0.5, accuracy: step, "played at the new gain")
        try rig.client.play(effectID: stored[0], count: 1)
        XCTAssertEqual(channel.compiledAhead, 6, "compiled once for the gain")

        rig.run(for: 0.3)
        try rig.client.play(effectID: stored[2], count: 1)
        XCTAssertEqual(channel.compiledAhead, 7)
        rig.run(for: 0.05)
        XCTAssertEqual(rig.drive(), 0.5, accuracy: step)
        // What a slot plays is what it would play now.
        XCTAssertEqual(rig.provider.plans(ofSlot: Int(stored[1]))["main"]?.pattern.parameterCurves.first?.controlPoints.first?.value ?? 0, 0.5 * 0xFEFF / 0xFFFF, accuracy: 0.0001)
        XCTAssertEqual(channel.compiledAhead, 8)
    }

    /// A trigger button's play, on the input thread, compiles its effect at a new gain too.
    func testATriggerButtonPlaysAtTheGainInForce() throws {
        let rig = try ForceFeedbackRig(keys: [0x130])
        var triggered = TestEffects.rumble(strong: 0xFFFF, weak: 0, length: 50)
        triggered.triggerButton = 0x130
        _ = try rig.client.upload(triggered)
        try rig.client.setGain(0x4000)
        rig.provider.keyPressed(0x130)
        rig.run(for: 0.02)
        XCTAssertEqual(rig.drive(), 0.25, accuracy: step)
    }

    /// The sequence a memoryless client (SDL's rumble, feedbackd) makes: upload, play, replace
    /// while playing, gain, stop, erase — and the drive follows without ever dropping to zero
    /// while an effect should play.
    func testMemlessClientSequence() throws {
        let rig = try ForceFeedbackRig()
        // SDL uploads its rumble with the longest length, 0xFFFF ms, and plays it once.
        let id = try rig.client.upload(TestEffects.rumble(strong: 0xFFFF, weak: 0, length: 0xFFFF))
        try rig.client.play(effectID: id, count: 1)
        rig.run(for: 0.05)
        XCTAssertEqual(rig.drive(), 1, accuracy: step)
        let writesBefore = rig.realtimeWrites().count

        // A new rumble strength replaces the effect while it plays; SDL plays it again.
        XCTAssertEqual(try rig.client.upload(TestEffects.rumble(strong: 0x4000, weak: 0x2000, length: 0xFFFF, id: id)), id)
        try rig.client.play(effectID: id, count: 1)
        rig.run(for: 0.05)
        XCTAssertEqual(rig.drive(), 0.25, accuracy: step)
        let replacement = rig.realtimeWrites().dropFirst(writesBefore)
        XCTAssertFalse(replacement.isEmpty)
        XCTAssertFalse(replacement.contains(0), "the drive went through zero on replacement: \(Array(replacement))")

        // Gain to half: the playing effect continues at half strength.
        try rig.client.setGain(0x8000)
        rig.run(for: 0.05)
        XCTAssertEqual(rig.drive(), 0.125, accuracy: step)
        XCTAssertEqual(rig.provider.gain, 0x8000)

        // Stop, play again, erase while playing: the kernel stops it first, then erases.
        try rig.client.play(effectID: id, count: 0)
        rig.run(for: 0.05)
        XCTAssertEqual(rig.drive(), 0)
        try rig.client.play(effectID: id, count: 1)
        rig.run(for: 0.05)
        XCTAssertEqual(rig.drive(), 0.125, accuracy: step)
        try rig.client.erase(effectID: id)
        rig.run(for: 0.05)
        XCTAssertEqual(rig.drive(), 0)
        XCTAssertTrue(rig.provider.effects.isEmpty)
        // A play of the erased slot never reaches the provider (the kernel drops it).
        try rig.client.play(effectID: id, count: 1)
        rig.run(for: 0.05)
        XCTAssertEqual(rig.drive(), 0)
        let counts = rig.provider.counts
        XCTAssertEqual([counts.uploads, counts.plays, counts.stops, counts.erases, counts.gains], [2, 3, 2, 1, 1])
    }

    func testDualGripsSplitRumbleStrongLeftWeakRight() throws {
        let rig = try ForceFeedbackRig(boardFile: "sim-dual-grips.yml")
        let id = try rig.client.upload(TestEffects.rumble(strong: 0xFFFF, weak: 0x4000, length: 1000))
        try rig.client.play(effectID: id, count: 1)
        rig.run(for: 0.1)
        XCTAssertEqual(rig.drive("left"), 1, accuracy: step)
        XCTAssertEqual(rig.drive("right"), 0.25, accuracy: step)
    }

    func testDirectionPansConstantBetweenLeftAndRight() throws {
        let rig = try ForceFeedbackRig(boardFile: "sim-dual-grips.yml")
        let left = try rig.client.upload(TestEffects.constant(0x7FFF, length: 200, direction: 0x4000))
        try rig.client.play(effectID: left, count: 1)
        rig.run(for: 0.1)
        XCTAssertEqual([rig.drive("left"), rig.drive("right")], [1, 0])
        rig.run(for: 0.2)
        let right = try rig.client.upload(TestEffects.constant(0x7FFF, length: 200, direction: 0xC000))
        try rig.client.play(effectID: right, count: 1)
        rig.run(for: 0.1)
        XCTAssertEqual([rig.drive("left"), rig.drive("right")], [0, 1])
        rig.run(for: 0.2)
        let below = try rig.client.upload(TestEffects.constant(0x4000, length: 200, direction: 0))
        try rig.client.play(effectID: below, count: 1)
        rig.run(for: 0.1)
        XCTAssertEqual(rig.drive("left"), 0.5, accuracy: step)
        XCTAssertEqual(rig.drive("right"), 0.5, accuracy: step)
    }

    func testRepeatCountAndDelayPlayEachRepetition() throws {
        let rig = try ForceFeedbackRig()
        let id = try rig.client.upload(TestEffects.rumble(strong: 0xFFFF, weak: 0, length: 100, delay: 100))
        try rig.client.play(effectID: id, count: 3)
        var levels: [Int] = []
        // Sampled in the middle of each 50 ms quarter of the 200 ms repetitions (100 ms delay, 100 ms on).
        rig.run(for: 0.025)
        for _ in 0..<14 {
            levels.append(rig.drive() > 0.5 ? 1 : 0)
            rig.run(for: 0.05)
        }
        XCTAssertEqual(levels, [0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0])
    }

    func testEndlessConstantWithAttackPlaysUntilStopped() throws {
        let rig = try ForceFeedbackRig()
        let envelope = ForceFeedbackEffect.Envelope(attackLength: 400, attackLevel: 0, fadeLength: 100, fadeLevel: 0)
        let id = try rig.client.upload(TestEffects.constant(0x7FFF, length: 0, envelope: envelope))
        try rig.client.play(effectID: id, count: 1)
        rig.run(for: 0.2)
        XCTAssertEqual(rig.drive(), 0.5, accuracy: 0.05, "half-way up the attack")
        rig.run(for: 4.8)
        XCTAssertEqual(rig.drive(), 1, accuracy: step, "an endless effect never fades")
        try rig.client.play(effectID: id, count: 0)
        rig.run(for: 0.01)
        XCTAssertEqual(rig.drive(), 0)
    }

    /// The kernel's drivers take an envelope level above 0x7FFF as 0x7FFF (ff-memless's
    /// `min_t(u16, attack_level, 0x7fff)`, hid-pidff's envelope report) rather than refuse the
    /// upload, and clients rely on it: ffcfstress writes its signed force into `attack_level`.
    func testEnvelopeLevelsAboveTheRangeAreTakenAsFullLevelAsTheKernelsDriversDo() throws {
        let rig = try ForceFeedbackRig()
        // Attacks from 0xFFFF (taken as full level) down to the constant's 0.5 over 100 ms.
        let loud = TestEffects.constant(0x4000, length: 300, envelope: .init(attackLength: 100, attackLevel: 0xFFFF))
        let id = try rig.client.upload(loud)
        XCTAssertEqual(rig.provider.counts.refusedUploads, 0)
        try rig.client.play(effectID: id, count: 1)
        rig.run(for: 0.05)
        XCTAssertEqual(rig.drive(), 0.75, accuracy: 0.05, "half-way down from full level")
        rig.run(for: 0.1)
        XCTAssertEqual(rig.drive(), 0.5, accuracy: step, "the constant's own level after the attack")
        // ffcfstress's update of a negative force: level −0x4000, attack_level the same bits as a
        // u16 (0xC000), no attack: the envelope does not apply and the level's size plays.
        let negative = ForceFeedbackEffect(id: id, kind: .constant(level: -0x4000, envelope: .init(attackLevel: 0xC000, fadeLevel: 0xC000)),
                                           direction: 0xC000, length: 0xFFFF)
        XCTAssertEqual(try rig.client.upload(negative), id)
        rig.run(for: 0.05)
        XCTAssertEqual(rig.drive(), 0.5, accuracy: step)
        try rig.client.erase(effectID: id)
        rig.run(for: 0.01)
        XCTAssertEqual(rig.drive(), 0)
    }

    /// ffcfstress's sequence: a constant force of level 0 and length 0xFFFF played once, then only
    /// uploaded again with each new force (its signed level in the envelope's levels too). As in
    /// ff-memless the play is in force for its length whatever its level, so each update drives.
    func testAConstantForcePlayedAtZeroFollowsItsUpdates() throws {
        let rig = try ForceFeedbackRig()
        func constant(_ level: Int16, id: Int16) -> ForceFeedbackEffect {
            let bits = UInt16(bitPattern: level)
            return ForceFeedbackEffect(id: id, kind: .constant(level: level, envelope: .init(attackLevel: bits, fadeLevel: bits)), direction: 0xC000, length: 0xFFFF)
        }
        let id = try rig.client.upload(constant(0, id: -1))
        try rig.client.play(effectID: id, count: 1)
        rig.run(for: 0.05)
        XCTAssertEqual(rig.drive(), 0)
        XCTAssertEqual(rig.provider.playingSlots, [Int(id)], "played, at a force of 0")
        for (level, drive) in [(Int16(0x4000), 0.5), (-0x6000, 0.75), (0x2000, 0.25)] {
            XCTAssertEqual(try rig.client.upload(constant(level, id: id)), id)
            rig.run(for: 0.04)
            XCTAssertEqual(rig.drive(), drive, accuracy: step, "level \(level)")
        }
        try rig.client.erase(effectID: id)
        rig.run(for: 0.01)
        XCTAssertEqual(rig.drive(), 0)
        XCTAssertEqual(rig.provider.playingSlots, [])
    }

    /// Once its length has passed, an effect no longer plays: an update then only stores it.
    func testAnUpdateAfterAnEffectsEndDoesNotPlayIt() throws {
        let rig = try ForceFeedbackRig()
        let id = try rig.client.upload(TestEffects.constant(0x7FFF, length: 100))
        try rig.client.play(effectID: id, count: 2)
        rig.run(for: 0.15)
        XCTAssertEqual(rig.provider.playingSlots, [Int(id)], "in its second repetition")
        rig.run(for: 0.1)
        XCTAssertEqual(rig.provider.playingSlots, [])
        XCTAssertEqual(try rig.client.upload(TestEffects.constant(0x4000, length: 100, id: id)), id)
        rig.run(for: 0.05)
        XCTAssertEqual(rig.drive(), 0)
    }

    /// The engine's continuous-drive guard cuts an endless force after the board's limit (sim:
    /// 30 s). The cut lasts: an update of the effect does not start it again, a play does.
    func testUpdatesDoNotRestartAnEffectTheDriveGuardCut() throws {
        let rig = try ForceFeedbackRig()
        let id = try rig.client.upload(TestEffects.constant(0x7FFF, length: 0))
        try rig.client.play(effectID: id, count: 1)
        rig.run(for: 29.9)
        XCTAssertEqual(rig.drive(), 1, accuracy: step)
        rig.run(for: 0.2)
        XCTAssertEqual(rig.drive(), 0, "cut at the limit")
        XCTAssertEqual(rig.engine.driveLimitEvents.count, 1)
        XCTAssertEqual(rig.provider.playingSlots, [])
        XCTAssertEqual(try rig.client.upload(TestEffects.constant(0x4000, length: 0, id: id)), id)
        rig.run(for: 0.05)
        XCTAssertEqual(rig.drive(), 0, "an update does not restart a cut effect")
        try rig.client.play(effectID: id, count: 1)
        rig.run(for: 0.05)
        XCTAssertEqual(rig.drive(), 0.5, accuracy: step, "a play does")
    }

    /// A cut on one actuator ends the effect on every actuator it plays on: the effect is over
    /// until it is played again, and a part left driving the other actuator would escape
    /// `FF_GAIN`, which rescales only the effects that play.
    func testACutOnOneActuatorEndsTheEffectOnTheOther() throws {
        let rig = try ForceFeedbackRig(boardFile: "sim-dual-grips.yml")
        let leftOnly = try rig.client.upload(TestEffects.rumble(strong: 0xFFFF, weak: 0, length: 0))
        try rig.client.play(effectID: leftOnly, count: 1)
        rig.run(for: 10)
        let both = try rig.client.upload(TestEffects.rumble(strong: 0x4000, weak: 0x4000, length: 0))
        try rig.client.play(effectID: both, count: 1)
        rig.run(for: 19.9)
        XCTAssertEqual(rig.drive("left"), 1, accuracy: step)
        XCTAssertEqual(rig.drive("right"), 0.25, accuracy: step)
        // The left grip has driven for 30 s, the right one for 20 s: only the left one is cut.
        rig.run(for: 0.2)
        XCTAssertEqual(rig.engine.driveLimitEvents.map(\.actuator), ["left"])
        XCTAssertEqual(rig.provider.playingSlots, [])
        XCTAssertEqual(rig.drive("left"), 0)
        XCTAssertEqual(rig.drive("right"), 0, "the cut effect is over on the right grip too")
        try rig.client.setGain(0x8000)
        rig.run(for: 0.1)
        XCTAssertEqual(rig.drive("right"), 0)
        try rig.client.play(effectID: both, count: 1)
        rig.run(for: 0.1)
        XCTAssertEqual(rig.drive("left"), 0.125, accuracy: step, "played again, at the gain in force")
        XCTAssertEqual(rig.drive("right"), 0.125, accuracy: step)
    }

    func testBadUploadsGetTheKernelsErrnoAndTheDeviceKeepsWorking() throws {
        let rig = try ForceFeedbackRig(slots: 2)
        // Undeclared type: the kernel refuses it before hapticboard sees it.
        let spring = ForceFeedbackEffect(kind: .other(.spring), length: 100)
        XCTAssertEqual(ForceFeedbackRig.errno { _ = try rig.client.upload(spring) }, .invalidArgument)
        // Custom waveform: uinput cannot carry samples.
        XCTAssertEqual(ForceFeedbackRig.errno { _ = try rig.client.upload(TestEffects.periodic(.custom, period: 10)) }, .invalidArgument)
        // Too many effects.
        _ = try rig.client.upload(TestEffects.rumble(strong: 1, weak: 1, length: 10))
        _ = try rig.client.upload(TestEffects.rumble(strong: 1, weak: 1, length: 10))
        XCTAssertEqual(ForceFeedbackRig.errno { _ = try rig.client.upload(TestEffects.rumble(strong: 1, weak: 1, length: 10)) }, .noSpace)
        // Replacing with another type, or another client's slot.
        XCTAssertEqual(ForceFeedbackRig.errno { _ = try rig.client.upload(TestEffects.constant(1, id: 0)) }, .invalidArgument)
        XCTAssertEqual(ForceFeedbackRig.errno { _ = try rig.device.connect().upload(TestEffects.rumble(strong: 1, weak: 1, id: 0)) }, .permissionDenied)
        // Still working: a play after all that drives.
        try rig.client.erase(effectID: 1)
        let id = try rig.client.upload(TestEffects.rumble(strong: 0xFFFF, weak: 0, length: 100))
        try rig.client.play(effectID: id, count: 1)
        rig.run(for: 0.05)
        XCTAssertEqual(rig.drive(), 1, accuracy: step)
    }

    func testClientClosingMidPlayStopsItsEffects() throws {
        let rig = try ForceFeedbackRig()
        let other = rig.device.connect()
        let mine = try rig.client.upload(TestEffects.rumble(strong: 0x8000, weak: 0, length: 0))
        let theirs = try other.upload(TestEffects.rumble(strong: 0x4000, weak: 0, length: 0))
        try rig.client.play(effectID: mine, count: 1)
        try other.play(effectID: theirs, count: 1)
        rig.run(for: 0.05)
        XCTAssertEqual(rig.drive(), 0.75, accuracy: step, "two effects on one actuator add")
        rig.client.close()
        rig.run(for: 0.05)
        XCTAssertEqual(rig.drive(), 0.25, accuracy: step)
        other.close()
        rig.run(for: 0.05)
        XCTAssertEqual(rig.drive(), 0)
        XCTAssertTrue(rig.provider.effects.isEmpty)
        // Idle: standby after the board's standby timeout.
        rig.run(for: 3)
        XCTAssertEqual(rig.board.actuators[0].actuator.powerState, .standby)
    }

    func testDeviceGoingAwayEndsTheProviderWithEverythingStopped() throws {
        let rig = try ForceFeedbackRig()
        let id = try rig.client.upload(TestEffects.rumble(strong: 0xFFFF, weak: 0, length: 0))
        try rig.client.play(effectID: id, count: 1)
        rig.run(for: 0.05)
        let ended = expectation(description: "ended")
        rig.provider.endedHandler = { ending in
            if case .device(.deviceGone) = ending { ended.fulfill() }
        }
        rig.device.serviceHook = nil
        try rig.provider.start()
        rig.device.close()
        wait(for: [ended], timeout: 10)
        rig.run(for: 0.01)
        XCTAssertEqual(rig.drive(), 0)
        XCTAssertTrue(rig.provider.effects.isEmpty)
        XCTAssertThrowsError(try rig.client.play(effectID: id, count: 1))
    }

    func testStopRemovesTheDeviceAndStopsEffects() throws {
        let rig = try ForceFeedbackRig()
        let id = try rig.client.upload(TestEffects.rumble(strong: 0xFFFF, weak: 0, length: 0))
        try rig.client.play(effectID: id, count: 1)
        rig.run(for: 0.05)
        rig.provider.stop()
        rig.run(for: 0.01)
        XCTAssertEqual(rig.drive(), 0)
        XCTAssertTrue(rig.device.isGone)
        XCTAssertThrowsError(try rig.client.upload(TestEffects.rumble(strong: 1, weak: 1))) { error in
            XCTAssertEqual(error as? ForceFeedbackError, .deviceGone(device: "/dev/input/sim-ff0"))
        }
    }

    /// The provider's own thread answers as it does with uinput: the client's upload blocks until
    /// the answer, and requests are handled in order (an upload after a play returns once the
    /// play was handled).
    func testTheProvidersThreadAnswersBlockingClients() throws {
        let rig = try ForceFeedbackRig(alsoDeclared: [.spring])
        rig.device.serviceHook = nil
        try rig.provider.start()
        defer { rig.provider.stop() }
        let id = try rig.client.upload(TestEffects.rumble(strong: 0xFFFF, weak: 0, length: 0))
        try rig.client.play(effectID: id, count: 1)
        _ = try rig.client.upload(TestEffects.rumble(strong: 1, weak: 1, length: 10))
        XCTAssertEqual(rig.provider.counts.plays, 1)
        rig.run(for: 0.05)
        XCTAssertEqual(rig.drive(), 1, accuracy: step)
        // Declared, so the kernel passes it on, but not played: the provider's refusal comes back.
        XCTAssertEqual(ForceFeedbackRig.errno { _ = try rig.client.upload(ForceFeedbackEffect(kind: .other(.spring), length: 100)) }, .invalidArgument)
        XCTAssertEqual(rig.provider.counts.refusedUploads, 1)
        XCTAssertNotNil(rig.provider.lastRefusal)
    }

    /// An actuator failing mid-effect stops the engine; the provider then ends and removes the
    /// device, so clients learn it is gone instead of rumbling into nothing.
    func testAnActuatorFaultEndsTheProviderAndRemovesTheDevice() throws {
        let rig = try ForceFeedbackRig()
        let ended = expectation(description: "ended")
        rig.provider.endedHandler = { ending in
            if case .engineStopped = ending { ended.fulfill() }
        }
        rig.device.serviceHook = nil
        try rig.provider.start()
        let id = try rig.client.upload(TestEffects.ramp(length: 1000))
        try rig.client.play(effectID: id, count: 1)
        _ = try rig.client.upload(TestEffects.rumble(strong: 1, weak: 1, length: 10))
        rig.run(for: 0.1)
        let bus = try XCTUnwrap(rig.hardware.chips["main"]?.bus)
        bus.injectError(.transfer(bus: bus.name, address: SimulatedBoard.chipAddress, errno: .ioError), onTransfer: 1, times: 1000)
        rig.run(for: 0.2)
        wait(for: [ended], timeout: 10)
        XCTAssertTrue(rig.device.isGone)
        XCTAssertThrowsError(try rig.client.play(effectID: id, count: 1))
        XCTAssertFalse(rig.engine.isRunning)
    }

    /// ff-memless ignores `trigger.button`, so every kernel rumble device takes an effect whose
    /// button it lacks: here too, and it plays by `EV_FF`.
    func testAnEffectWhoseTriggerButtonTheDeviceLacksIsTakenAndPlaysByEVFF() throws {
        let rig = try ForceFeedbackRig()
        var triggered = TestEffects.rumble(strong: 0xFFFF, weak: 0, length: 100)
        triggered.triggerButton = 0x130
        let id = try rig.client.upload(triggered)
        XCTAssertEqual(rig.provider.counts.refusedUploads, 0)
        rig.provider.keyPressed(0x130)
        rig.run(for: 0.02)
        XCTAssertEqual(rig.drive(), 0, "not a key of this device")
        try rig.client.play(effectID: id, count: 1)
        rig.run(for: 0.05)
        XCTAssertEqual(rig.drive(), 1, accuracy: step)
    }

    // The kernel's ff-core leaves trigger buttons to the device; a board with buttons has them.
    func testAnEffectWithATriggerButtonPlaysWhenThatKeyIsPressedAtMostOncePerInterval() throws {
        let rig = try ForceFeedbackRig(keys: [0x130])
        var triggered = TestEffects.rumble(strong: 0xFFFF, weak: 0, length: 50)
        triggered.triggerButton = 0x130
        triggered.triggerInterval = 200
        _ = try rig.client.upload(triggered)
        rig.run(for: 0.01)
        XCTAssertEqual(rig.drive(), 0, "uploaded, not played")

        rig.provider.keyPressed(0x131)
        rig.run(for: 0.02)
        XCTAssertEqual(rig.drive(), 0, "another key")
        rig.provider.keyPressed(0x130)
        rig.run(for: 0.02)
        XCTAssertGreaterThan(rig.drive(), 0, "the trigger button started it")
        rig.run(for: 0.1)
        XCTAssertEqual(rig.drive(), 0, "its 50 ms are over")
        rig.provider.keyPressed(0x130)
        rig.run(for: 0.02)
        XCTAssertEqual(rig.drive(), 0, "150 ms after the first: within the 200 ms trigger interval")
        rig.run(for: 0.1)
        rig.provider.keyPressed(0x130)
        rig.run(for: 0.02)
        XCTAssertGreaterThan(rig.drive(), 0, "past the interval")
        XCTAssertEqual(rig.provider.counts.triggeredPlays, 2)
    }
}

extension ForceFeedbackProviderTests {
    /// SDL's testhaptic (SDL 2.26, as Debian ships it, the lane's `scenario_sdl_testhaptic`): five
    /// effects uploaded up front as SDL converts them, the gain set to full, then each played once
    /// for its 5 s with 1 s between them. Each reaches its own strength and ends at 0: the sine's
    /// 0x2000 (a quarter), the sawtooth's 0x5000, the constant force's 0x6000, the ramp's |level|
    /// where its 1 s attack ends (0x4000 → −0x4000 over 5 s: 0.3 at 1 s), the rumble's weak motor
    /// at full.
    func testSDLTesthapticSequence() throws {
        let rig = try ForceFeedbackRig()
        let fades = ForceFeedbackEffect.Envelope(attackLength: 1000, fadeLength: 1000)
        let effects: [(name: String, effect: ForceFeedbackEffect, highest: Double)] = [
            ("sine", ForceFeedbackEffect(kind: .periodic(.init(waveform: .sine, period: 1000, magnitude: -0x2000, phase: 18000, envelope: fades)), length: 5000), 0x2000 / 0x7FFF),
            ("sawtooth", ForceFeedbackEffect(kind: .periodic(.init(waveform: .sawUp, period: 500, magnitude: 0x5000, envelope: fades)), length: 5000), 0.6),
            ("constant", ForceFeedbackEffect(kind: .constant(level: 0x6000, envelope: fades), length: 5000), 0x6000 / 0x7FFF),
            ("ramp", ForceFeedbackEffect(kind: .ramp(start: 0x4000, end: -0x4000, envelope: fades), direction: 0x6000, length: 5000), 0.3),
            ("left/right", ForceFeedbackEffect(kind: .rumble(strong: 0x6000, weak: 0xFFFE), direction: 0x4000, length: 5000), 1),
        ]
        let ids = try effects.map { try rig.client.upload($0.effect) }
        try rig.client.setGain(0xFFFF)
        for (effect, id) in zip(effects, ids) {
            try rig.client.play(effectID: id, count: 1)
            var highest = 0.0
            for _ in 0..<600 {
                rig.run(for: 0.01)
                highest = max(highest, rig.drive())
            }
            XCTAssertEqual(highest, effect.highest, accuracy: 2 * step, effect.name)
            XCTAssertEqual(rig.drive(), 0, "\(effect.name) ended")
        }
    }
}
