import ActuatorHAL
import ActuatorHALLinux
import Foundation
import HapticRuntime
import HardwareMocks
import XCTest
@testable import hapticboard

/// `play` ends a pattern only once its last sound has left the device: the stop at the end drops
/// whatever the device still holds, so a sound placed late must not be cut.
final class SoundPlayOutTests: XCTestCase {
    /// 50 ms at half scale: every frame of it is non-zero in the capture.
    private static let soundFrames = 2_400

    func testASoundPlacedLatePlaysToItsLastFrameBeforeTheDeviceIsStopped() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hapticboard-play-out-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try SoundFileEncoder.write(
            samples: [Float](repeating: 0.5, count: Self.soundFrames), channels: 1, sampleRate: 48_000,
            container: .wav, to: folder.appendingPathComponent("burst.wav")
        )
        let board = try BoardChips.open(board: BuiltInBoard.simName)
        let targets = try board.actuators(named: nil)
        let clock = try XCTUnwrap(targets[0].simulatedClock)
        let playback = EnginePlayback(targets: targets, clock: clock, pace: .stepped, idleTimeouts: board.idleTimeouts)
        let sound = try XCTUnwrap(PlayAudio.open(board: board, contentFile: folder.appendingPathComponent("burst.ahap"), clock: clock, simulatedClock: clock))
        let sink = try XCTUnwrap(sound.audio.output.sink as? PCMCaptureSink)
        playback.engine.attachAudio(sound.audio)

        let start = clock.now + .milliseconds(50)
        // The timing thread stalls for 40 ms shortly before the sound is placed (a few periods ahead
        // of its deadline), as it does now and then on a busy or emulated machine: the sound is
        // placed as soon as it runs again, 30 ms late, and ends that much after its player.
        playback.scheduler.schedule(at: start + .milliseconds(90), class: .control, costKey: "stall") {
            clock.advance(by: .milliseconds(40))
        }
        let pattern = HapticPattern(events: [HapticEvent(type: .audioCustom, time: 0.1, waveformPath: "burst.wav")])
        try playback.play([pattern], loop: false, rate: 1, startingAt: start, frameInterval: .milliseconds(1), stopRequested: { false })
        try playback.letSoundPlayOut(stopRequested: { false })
        try playback.finish()

        let onset = try XCTUnwrap(sound.audio.output.onsets.first)
        XCTAssertGreaterThan(onset.onset - onset.deadline, .milliseconds(25), "the stall made the sound late: \(onset)")
        // Stopping drops the frames the device has not played from the capture, so these are the
        // frames that left the device.
        let played = sink.channel(0).filter { $0 != 0 }.count
        XCTAssertEqual(played, Self.soundFrames, "every frame of the sound played before the device was stopped")
    }

    func testAStopRequestEndsThePlayOutAtOnce() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hapticboard-play-out-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try SoundFileEncoder.write(
            samples: [Float](repeating: 0.5, count: 48_000), channels: 1, sampleRate: 48_000,
            container: .wav, to: folder.appendingPathComponent("long.wav")
        )
        let board = try BoardChips.open(board: BuiltInBoard.simName)
        let targets = try board.actuators(named: nil)
        let clock = try XCTUnwrap(targets[0].simulatedClock)
        let playback = EnginePlayback(targets: targets, clock: clock, pace: .stepped, idleTimeouts: board.idleTimeouts)
        let sound = try XCTUnwrap(PlayAudio.open(board: board, contentFile: folder.appendingPathComponent("long.ahap"), clock: clock, simulatedClock: clock))
        playback.engine.attachAudio(sound.audio)
        let pattern = HapticPattern(events: [HapticEvent(type: .audioCustom, time: 0, waveformPath: "long.wav")])
        let start = clock.now + .milliseconds(50)
        var stop = false
        try playback.play([pattern], loop: false, rate: 1, startingAt: start, frameInterval: .milliseconds(1), stopRequested: {
            stop = clock.now >= start + .milliseconds(200)
            return stop
        })
        let requested = clock.now
        try playback.letSoundPlayOut(stopRequested: { stop })
        XCTAssertEqual(clock.now, requested, "no play-out wait after a stop request")
        try playback.finish()
    }
}
