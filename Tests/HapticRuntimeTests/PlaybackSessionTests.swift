import ActuatorHAL
import ActuatorHALLinux
import Foundation
import HapticRuntime
import HardwareMocks
import XCTest

/// A playback session on the simulated board: what `play` does, as a library call.
final class PlaybackSessionTests: XCTestCase {
    /// 50 ms at half scale: every frame of it is non-zero in the capture.
    private static let soundFrames = 2_400
    private static let soundFormat = PCMFormat(sampleRate: 48_000, channels: 2, periodFrames: PCMFormat.lowLatencyPeriodFrames)

    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("hapticboard-session-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// The sim board on simulated hardware, a stepped session on it, and a simulated sound output.
    private func session() throws -> (PlaybackSession, SimulatedBoardHardware, PCMCaptureSink) {
        let hardware = SimulatedBoardHardware(soundDecoder: SoundFileDecoder())
        let board = try Board.sim.open(on: hardware)
        let session = PlaybackSession(board: board, pace: .stepped)
        let sound = try board.openSoundOutput(device: Board.simName, format: Self.soundFormat, soundsIn: folder)
        session.attachSound(sound, simulated: true)
        return (session, hardware, try XCTUnwrap(sound.output.sink as? PCMCaptureSink))
    }

    private func item(_ events: [HapticEvent]) -> PlaybackSession.Item {
        PlaybackSession.Item(name: "test", content: LoadedContent(format: .ahap, pattern: HapticPattern(events: events)), soundFolder: folder)
    }

    func testAPatternPlaysAndTheChipEndsInStandby() throws {
        let (session, hardware, _) = try session()
        var events = [HapticEvent(type: .hapticTransient, time: 0)]
        events.append(HapticEvent(type: .hapticContinuous, time: 0.05, duration: 0.1))
        let report = try session.play([item(events)])
        XCTAssertEqual(report.events, 2)
        XCTAssertEqual(report.passes, 1)
        XCTAssertEqual(report.late, 0)
        XCTAssertGreaterThan(report.commands, 0)
        XCTAssertEqual(report.calibration, "none")
        XCTAssertEqual(report.transitions.first?.transition, "wake")
        let chip = try XCTUnwrap(hardware.chips["main"]).chip
        XCTAssertTrue(chip.isEnabled)
        XCTAssertEqual(chip.register(DRV2605Register.mode.rawValue) & 0x40, 0x40, "standby")
        XCTAssertEqual(chip.register(DRV2605Register.realtimeInput.rawValue), 0)
        XCTAssertGreaterThan(chip.drive.changes.count, 2)
    }

    func testASoundPlacedLatePlaysToItsLastFrameBeforeTheDeviceIsStopped() throws {
        try SoundFileEncoder.write(
            samples: [Float](repeating: 0.5, count: Self.soundFrames), channels: 1, sampleRate: 48_000,
            container: .wav, to: folder.appendingPathComponent("burst.wav")
        )
        let (session, hardware, sink) = try session()
        let clock = hardware.virtualClock
        // The timing thread stalls for 40 ms shortly before the sound is placed (a few periods ahead
        // of its deadline), as it does now and then on a busy or emulated machine: the sound is
        // placed as soon as it runs again, 30 ms late, and ends that much after its player.
        var stallScheduled = false
        let report = try session.play([item([HapticEvent(type: .audioCustom, time: 0.1, waveformPath: "burst.wav")])], options: .init(frameInterval: .milliseconds(1)), frame: {
            guard !stallScheduled, let start = session.firstDeadline else { return }
            stallScheduled = true
            session.scheduler.schedule(at: start + .milliseconds(90), class: .control, costKey: "stall") {
                clock.advance(by: .milliseconds(40))
            }
        })
        let onset = try XCTUnwrap(report.audio?.onsets.first)
        XCTAssertGreaterThan(onset.offsetMicroseconds, 25_000, "the stall made the sound late: \(onset)")
        // Stopping drops the frames the device has not played from the capture, so these are the
        // frames that left the device.
        let played = sink.channel(0).filter { $0 != 0 }.count
        XCTAssertEqual(played, Self.soundFrames, "every frame of the sound played before the device was stopped")
    }

    func testAStopRequestEndsThePlayOutAtOnce() throws {
        try SoundFileEncoder.write(
            samples: [Float](repeating: 0.5, count: 48_000), channels: 1, sampleRate: 48_000,
            container: .wav, to: folder.appendingPathComponent("long.wav")
        )
        let (session, hardware, _) = try session()
        let clock = hardware.virtualClock
        var requested: MonotonicInstant?
        _ = try session.play([item([HapticEvent(type: .audioCustom, time: 0, waveformPath: "long.wav")])], options: .init(frameInterval: .milliseconds(1)), stopRequested: {
            guard let start = session.firstDeadline, clock.now >= start + .milliseconds(200) else { return false }
            requested = requested ?? clock.now
            return true
        })
        let stoppedAt = try XCTUnwrap(requested)
        // Waiting for the rest of the second-long sound would take up to a second of virtual time;
        // only the stop's own bus writes pass.
        XCTAssertLessThan(clock.now - stoppedAt, .milliseconds(1), "no play-out wait after a stop request")
    }

    func testPianoNotesPlayROMEffectsOnTheSimChip() throws {
        let (session, hardware, _) = try session()
        let report = try session.play([.init(name: "notes", notes: [.hapticFeedback(.impact(.heavy)), .wait(0.1), .hapticFeedback(.selection)])])
        XCTAssertEqual(report.late, 0)
        // Strong Click 100 % then Sharp Tick 1 from the LRA library, each started with GO.
        let sequencerWrites = try XCTUnwrap(hardware.chips["main"]).bus.log.compactMap { entry -> [UInt8]? in
            guard case .write(let bytes)? = entry.operations.first, bytes.first == DRV2605Register.waveformSequence1.rawValue else { return nil }
            return bytes
        }
        XCTAssertEqual(sequencerWrites.map { $0.dropFirst().first }, [1, 24])
    }

    /// The engine stopping on its own after one item ended and before the next began — in the
    /// same stretch of time the session ran for the first item's wait — is reported with why it
    /// stopped, not as "the engine is stopped: call start() first" (the lane's unplugged sound card
    /// once gave that). Here the chip stops answering right after the first click's last write:
    /// the standby write at the idle timeout fails, in the same five-second frame.
    func testAnEngineThatStopsBetweenTwoItemsIsReportedWithWhyItStopped() throws {
        let (session, hardware, _) = try session()
        let bus = try XCTUnwrap(hardware.chips["main"]).bus
        let click = item([HapticEvent(type: .hapticTransient, time: 0)])
        var lastClickWrite: MonotonicInstant?
        bus.transactionObserver = { transaction in
            // RTP_INPUT back to 0 ends the click; everything after it fails (retries too).
            guard lastClickWrite == nil, transaction.operations == [.write([DRV2605Register.realtimeInput.rawValue, 0])] else { return }
            lastClickWrite = transaction.time
            bus.injectError(.noAcknowledge(bus: bus.name, address: SimulatedBoard.chipAddress), onTransfer: 1, times: 1_000)
        }
        var options = PlaybackSession.Options()
        options.frameInterval = .seconds(5)
        XCTAssertThrowsError(try session.play([click, click], options: options)) { error in
            guard case PlaybackSession.Failure.engineStopped(_, let fault?) = error else { return XCTFail("\(error)") }
            XCTAssertTrue("\(fault)".contains("0x5A"), "\(fault)")
        }
        let clickEnded = try XCTUnwrap(lastClickWrite, "the click ends with RTP_INPUT 0")
        let firstFailure = try XCTUnwrap(bus.log.first { $0.error != nil })
        XCTAssertGreaterThanOrEqual(firstFailure.time - clickEnded, .seconds(1), "the first failure is the idle standby, not the next click's")
        let board = try XCTUnwrap(hardware.chips["main"])
        XCTAssertEqual(board.chip.drive.level(at: hardware.virtualClock.now).amplitude, 0, "the actuator is left still")
    }
}
