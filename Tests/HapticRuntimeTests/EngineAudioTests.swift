import ActuatorHAL
import ActuatorHALLinux
import Foundation
import HardwareMocks
import XCTest
@testable import HapticRuntime

final class EngineAudioTests: XCTestCase {
    private let format = PCMFormat.lowLatency(sampleRate: 48_000, channels: 2)

    private struct AudioRig {
        let rig: EngineRig
        let sink: PCMCaptureSink
        let audio: EngineAudio

        /// Play instants of frames that start a sound (non-zero after silence) on channel 0.
        var onsets: [MonotonicInstant] {
            let left = sink.channel(0)
            return left.indices.filter { $0 > 0 && left[$0] != 0 && left[$0 - 1] == 0 }.compactMap { sink.playTime(ofFrame: $0) }
        }
    }

    /// An empty temporary folder, removed when the test ends.
    private func makeFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hapticboard-engine-audio-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder
    }

    /// `click.wav`: 10 ms at 0.5, from a table rather than a codec.
    private func clickLibrary() throws -> SoundLibrary {
        let click = DecodedSound(sampleRate: 48_000, channels: 1, samples: [Float](repeating: 0.5, count: 480))
        let folder = try makeFolder()
        try Data().write(to: folder.appendingPathComponent("click.wav"))
        return SoundLibrary(decoder: TableDecoder(sounds: ["click.wav": click]), sampleRate: 48_000, folder: folder)
    }

    /// A started engine on the simulated board whose sounds (by default `clickLibrary()`) play into a capture sink.
    private func makeRig(sounds: SoundLibrary? = nil, sharing: PCMCaptureSink.Sharing = .exclusive) throws -> AudioRig {
        let rig = EngineRig()
        let sink = try PCMCaptureSink(name: "sim audio", format: format, sharing: sharing, clock: rig.board.clock)
        let audio = EngineAudio(output: AudioScheduler(sink: sink, clock: rig.board.clock), sounds: try sounds ?? clickLibrary())
        rig.engine.attachAudio(audio)
        try rig.engine.start()
        return AudioRig(rig: rig, sink: sink, audio: audio)
    }

    private func tapWithClick(at time: Double) -> [HapticEvent] {
        [TestPatterns.transient(at: time), HapticEvent(type: .audioCustom, time: time, waveformPath: "click.wav")]
    }

    func testSoundLeavesTheDeviceWithin1msOfItsHapticEvent() throws {
        let audio = try makeRig()
        let player = try audio.rig.engine.makePlayer(with: HapticPattern(events: tapWithClick(at: 0.1) + tapWithClick(at: 0.35)))
        try player.start(atTime: 0.05)
        audio.rig.run(until: 0.6)

        let goTimes = audio.rig.goTimes
        XCTAssertEqual(goTimes.count, 2, "both taps played on the chip")
        let onsets = audio.onsets
        XCTAssertEqual(onsets.count, 2)
        for (index, time) in [0.15, 0.4].enumerated() {
            let deadline = MonotonicInstant.at(time)
            XCTAssertLessThanOrEqual(abs((onsets[index] - deadline).nanoseconds), 1_000_000, "audio onset vs haptic deadline \(time) s")
            XCTAssertLessThanOrEqual(abs((onsets[index] - goTimes[index]).nanoseconds), 1_000_000, "audio onset vs the chip's GO")
        }
        XCTAssertEqual(audio.audio.output.underruns, 0)
        XCTAssertTrue(player.programs.values.allSatisfy { $0.warnings.allSatisfy { !$0.message.contains("audio") } }, "audio events are played, not reported")
    }

    /// 100 ms of 1 kHz in 16-bit steps, so a lossless file holds exactly these samples.
    private let flacTone = (0..<4800).map { Float((0.5 * sin(2 * Double.pi * 1000 * Double($0) / 48_000) * 32768).rounded()) / 32768 }

    /// Writes `flacTone` to `tone.flac` in a new folder beside `tap.ahap`, a tap at 0.1 s with
    /// `tone.flac` as its AudioCustom sound; `damage` may rewrite the FLAC's bytes. Returns a rig
    /// decoding with libsndfile beside the file, playing the AHAP file's pattern from 0.05 s.
    private func playTapWithFLAC(damage: (Data) -> Data = { $0 }) throws -> AudioRig {
        let folder = try makeFolder()
        let flac = folder.appendingPathComponent("tone.flac")
        try SoundFileEncoder.write(samples: flacTone, channels: 1, sampleRate: 48_000, container: .flac, to: flac)
        try damage(Data(contentsOf: flac)).write(to: flac)
        let ahap = folder.appendingPathComponent("tap.ahap")
        try Data("""
            { "Pattern": [
              { "Event": { "Time": 0.1, "EventType": "HapticTransient" } },
              { "Event": { "Time": 0.1, "EventType": "AudioCustom", "EventWaveformPath": "tone.flac" } } ] }
            """.utf8).write(to: ahap)
        let content = try AHAP.read(contentsOf: ahap)
        let audio = try makeRig(sounds: SoundLibrary(decoder: SoundFileDecoder(), sampleRate: 48_000, contentFile: ahap))
        try audio.rig.engine.makePlayer(with: content.pattern).start(atTime: 0.05)
        audio.rig.run(until: 0.4)
        return audio
    }

    func testAnAHAPFileNamingAFLACPlaysItThroughLibsndfileBesideItsTap() throws {
        let audio = try playTapWithFLAC()
        XCTAssertEqual(audio.audio.problems, [])
        let go = try XCTUnwrap(audio.rig.goTimes.first)
        let left = audio.sink.channel(0)
        // The tone's first sample is 0, so it starts one frame before the first non-zero one.
        let start = try XCTUnwrap(left.firstIndex { $0 != 0 }) - 1
        let onset = try XCTUnwrap(audio.sink.playTime(ofFrame: start))
        XCTAssertLessThanOrEqual(abs((onset - .at(0.15)).nanoseconds), 1_000_000, "audio onset vs haptic deadline")
        XCTAssertLessThanOrEqual(abs((onset - go).nanoseconds), 1_000_000, "audio onset vs the chip's GO")
        // A mono file panned to the centre at full volume: √½ of each sample on each side.
        guard left.count >= start + flacTone.count else { return XCTFail("captured \(left.count) frames, the tone ends at \(start + flacTone.count)") }
        let played = Array(left[start..<start + flacTone.count])
        XCTAssertLessThan(zip(played, flacTone).map { abs($0 - 0.5.squareRoot() * Double($1)) }.max() ?? 1, 2.0 / 32768)
        XCTAssertEqual(try XCTUnwrap(SignalMeasurement.zeroCrossingFrequency(of: played, sampleRate: 48_000)), 1000, accuracy: 0.5)
        XCTAssertEqual(SignalMeasurement.peak(of: left, in: start + flacTone.count..<left.count), 0, "the file once, then silence")
    }

    func testAFLACCutShortIsReportedAndTheHapticsStillPlay() throws {
        let audio = try playTapWithFLAC { $0.prefix($0.count / 2) }
        guard case .decoding(.decoding(let path, _))? = audio.audio.problems.first else { return XCTFail("\(audio.audio.problems)") }
        XCTAssertTrue(path.hasSuffix("/tone.flac"), path)
        XCTAssertEqual(audio.audio.problems.count, 1)
        XCTAssertEqual(audio.rig.goTimes.count, 1)
        XCTAssertEqual(SignalMeasurement.peak(of: audio.sink.channel(0), in: 0..<audio.sink.frameCount), 0, "no part of the cut file plays")
    }

    func testPlaysHapticsOnlyAndMutingSilenceTheSound() throws {
        let audio = try makeRig()
        audio.rig.engine.playsHapticsOnly = true
        try audio.rig.engine.makePlayer(with: HapticPattern(events: tapWithClick(at: 0.1))).start(atTime: 0.05)
        audio.rig.run(until: 0.3)
        XCTAssertTrue(audio.onsets.isEmpty)
        XCTAssertEqual(audio.rig.goTimes.count, 1, "the haptics still play")

        audio.rig.engine.playsHapticsOnly = false
        audio.rig.engine.isMutedForAudio = true
        try audio.rig.engine.makePlayer(with: HapticPattern(events: tapWithClick(at: 0.1))).start(atTime: 0.35)
        audio.rig.run(until: 0.6)
        XCTAssertTrue(audio.onsets.isEmpty)

        audio.rig.engine.isMutedForAudio = false
        try audio.rig.engine.makePlayer(with: HapticPattern(events: tapWithClick(at: 0.1))).start(atTime: 0.65)
        audio.rig.run(until: 0.9)
        XCTAssertEqual(audio.onsets.count, 1)
    }

    func testCancellingAPlayerFadesItsSoundAndStoppingTheEngineStopsTheStream() throws {
        let audio = try makeRig()
        let long = HapticEvent(type: .audioContinuous, time: 0, duration: 1, parameters: [EventParameter(.audioBrightness, 0)])
        let player = try audio.rig.engine.makePlayer(with: HapticPattern(events: [TestPatterns.transient(at: 0), long]))
        try player.start(atTime: 0.05)
        audio.rig.run(until: 0.2)
        try player.cancel()
        audio.rig.run(until: 0.3)
        let left = audio.sink.channel(0)
        XCTAssertGreaterThan(SignalMeasurement.peak(of: left, in: 7200..<9000), 0.5, "the tone played")
        XCTAssertLessThan(left.count, 48_000 * 3 / 10, "the stream ran dry once nothing was left to play")
        // Cancelled at 0.2 s (frame 9600): what was already queued plays — at most the target of
        // three periods plus the part of a period a top-up writes beyond it — then the 1 ms fade.
        let lastSound = try XCTUnwrap(left.lastIndex { $0 != 0 })
        XCTAssertLessThanOrEqual(lastSound, 9600 + 4 * 128 - 1 + 48 + 1, "faded out at the cancel")
        audio.rig.engine.stop()
        let frames = audio.sink.frameCount
        audio.rig.run(until: 0.5)
        XCTAssertEqual(audio.sink.frameCount, frames, "a stopped engine writes no more audio")
        XCTAssertFalse(audio.sink.isRunning)
    }

    func testParametersSentWhilePlayingShapeTheSoundsThatStartAfterThem() throws {
        let audio = try makeRig()
        let tone = { (time: Double) in HapticEvent(type: .audioContinuous, time: time, duration: 0.05, parameters: [EventParameter(.audioBrightness, 0)]) }
        // The buzz keeps the player playing (its end is its haptic programs' end).
        let player = try audio.rig.engine.makePlayer(with: HapticPattern(events: [TestPatterns.continuous(duration: 0.4), tone(0.1), tone(0.3)]))
        try player.start(atTime: 0.05)
        audio.rig.run(until: 0.2)
        try player.sendParameters([DynamicParameter(.audioVolumeControl, value: 0.5, time: 0)], atTime: 0)
        audio.rig.run(until: 0.5)
        let left = audio.sink.channel(0)
        let centre = 0.5.squareRoot()
        // Frame n plays at n / 48 kHz (the stream started at 0): tones at 0.15 s and 0.35 s.
        XCTAssertEqual(SignalMeasurement.peak(of: left, in: 7300..<9400), centre, accuracy: 0.01, "the first tone, before the change")
        XCTAssertEqual(SignalMeasurement.peak(of: left, in: 16_900..<19_000), 0.5 * centre, accuracy: 0.01, "the second, after it")
        XCTAssertEqual(SignalMeasurement.peak(of: left, in: 19_300..<21_000), 0, "each tone once")
    }

    func testAPlayerLastsUntilItsSoundsEnd() throws {
        let audio = try makeRig()
        let finished = Collected<MonotonicInstant>()
        let pattern = HapticPattern(events: tapWithClick(at: 0) + [HapticEvent(type: .audioCustom, time: 0.2, waveformPath: "click.wav")])
        let player = try audio.rig.engine.makeAdvancedPlayer(with: pattern)
        XCTAssertEqual(player.duration, 0.21, accuracy: 1e-9, "the second click (10 ms from 0.2 s), not the tap, ends the pattern")
        let clock = audio.rig.board.clock
        player.completionHandler = { _ in finished.append(clock.now) }
        try player.start(atTime: 0.05)
        audio.rig.run(until: 0.5)
        XCTAssertEqual(audio.onsets.count, 2)
        let end = try XCTUnwrap(finished.values.first)
        // The final stop is issued its bus lead (≈ 0.1 ms) ahead of 0.26 s.
        XCTAssertGreaterThanOrEqual(end, .at(0.259))
        XCTAssertLessThan(end, .at(0.27))
    }

    func testAPatternOfSoundsOnlyPlaysItsSoundWithoutWakingTheActuator() throws {
        let audio = try makeRig()
        let finished = Collected<MonotonicInstant>()
        let player = try audio.rig.engine.makeAdvancedPlayer(with: HapticPattern(events: [HapticEvent(type: .audioCustom, time: 0.1, waveformPath: "click.wav")]))
        XCTAssertEqual(player.duration, 0.11, accuracy: 1e-9, "the click's 10 ms from 0.1 s")
        let clock = audio.rig.board.clock
        player.completionHandler = { _ in finished.append(clock.now) }
        try player.start(atTime: 0.05)
        audio.rig.run(until: 0.4)
        XCTAssertEqual(audio.onsets.count, 1)
        XCTAssertLessThanOrEqual(abs((try XCTUnwrap(audio.onsets.first) - .at(0.15)).nanoseconds), 21_000)
        let end = try XCTUnwrap(finished.values.first, "the player ends")
        XCTAssertGreaterThanOrEqual(end, .at(0.16), "not before its sound has played")
        XCTAssertLessThan(end, .at(0.17))
        XCTAssertEqual(audio.rig.actuator.powerState, .off, "nothing for the chip, so it was never woken")
        XCTAssertTrue(audio.rig.goTimes.isEmpty)
    }

    func testAMissingSoundIsReportedAndTheHapticsAndOtherSoundsStillPlay() throws {
        let audio = try makeRig()
        let pattern = HapticPattern(events: [
            TestPatterns.transient(at: 0.1), HapticEvent(type: .audioCustom, time: 0.1, waveformPath: "missing.wav"),
            HapticEvent(type: .audioCustom, time: 0.2, waveformPath: "click.wav"),
        ])
        try audio.rig.engine.makePlayer(with: pattern).start(atTime: 0.05)
        audio.rig.run(until: 0.4)
        XCTAssertEqual(audio.audio.problems, [.waveformPath(path: "missing.wav", problem: .notFound)])
        XCTAssertEqual(audio.rig.goTimes.count, 1)
        XCTAssertEqual(audio.onsets.count, 1, "the click still plays beside the missing file")
        XCTAssertLessThanOrEqual(abs((try XCTUnwrap(audio.onsets.first) - .at(0.25)).nanoseconds), 21_000)
    }

    func testAnIdleOutputRestsAndStartsAgainOnTime() throws {
        let audio = try makeRig()
        try audio.rig.engine.makePlayer(with: HapticPattern(events: tapWithClick(at: 0.1))).start(atTime: 0.05)
        audio.rig.run(until: 0.5)
        let frames = audio.sink.frameCount
        XCTAssertLessThan(frames, 48_000 / 4, "no writes once the click has played")
        try audio.rig.engine.makePlayer(with: HapticPattern(events: tapWithClick(at: 0.1))).start(atTime: 1.0)
        audio.rig.run(until: 1.5)
        XCTAssertEqual(audio.onsets.count, 2)
        XCTAssertLessThanOrEqual(abs((audio.onsets[1] - .at(1.1)).nanoseconds), 21_000, "placed afresh after the rest")
        XCTAssertEqual(audio.audio.output.underruns, 0, "running dry while idle is not an underrun")
    }

    func testTheLastSoundOnASharedDevicePlaysToItsFinalFrame() throws {
        // On ALSA's dshare or dmix a write reaches the device only as far as one buffer past the
        // device's current period, the rest at the next write. A service that ran a little late
        // fills the queue past that window; if it wrote the click's end and the stream then went
        // quiet, the end never reached the device and played as silence. Every phase of the
        // device's periods, and stalls of a few frames to most of a period just before the
        // click's last block is written.
        let period = format.periodFrames
        var cut: [String] = []
        for phase in stride(from: 0, to: period, by: period / 8) {
            for stall in [period / 16, period / 4, period / 2, 3 * period / 4] {
                for stallPeriod in 1...4 {
                    let audio = try makeRig(sharing: .direct(periodPhase: format.duration(ofFrames: phase)))
                    try audio.rig.engine.makePlayer(with: HapticPattern(events: [HapticEvent(type: .audioCustom, time: 0.1, waveformPath: "click.wav")])).start(atTime: 0)
                    // The stream is serviced every period from 0; the click's last frame plays at
                    // 110 ms, its block written up to the queue (three periods) ahead of it. The
                    // stall ends just after a service was due.
                    let periodDuration = format.duration(ofFrames: period)
                    let stallAt = MonotonicInstant.zero + periodDuration * (Int(0.11 / periodDuration.secondsValue) - stallPeriod) - .microseconds(1)
                    let clock = audio.rig.board.clock, stallFor = format.duration(ofFrames: stall)
                    audio.rig.scheduler.schedule(at: stallAt, class: .control, costKey: "stall") { clock.advance(by: stallFor) }
                    audio.rig.run(until: 0.3)
                    XCTAssertTrue(audio.audio.output.isIdle)
                    let played = audio.sink.channel(0).filter { $0 != 0 }.count
                    if played != 480 {
                        cut.append("phase \(phase), stall \(stall) frames \(stallPeriod) period(s) before the end: \(played) of 480 frames")
                    }
                }
            }
        }
        XCTAssertEqual(cut, [], "the click's end played as silence")
    }

    func testAStartedEngineWithNothingToPlayQueuesNoService() throws {
        // A service queued at start would wait behind whatever runs before the timing thread
        // (waking, compiling) and be counted late in play's summary.
        let audio = try makeRig()
        XCTAssertNil(audio.audio.serviceToken)
        audio.rig.run(until: 0.1)
        XCTAssertEqual(audio.rig.scheduler.metrics.dispatched, 0)
        XCTAssertEqual(audio.sink.frameCount, 0)
    }

    func testAServiceRunLateDoesNotCatchUpOnTheMissedPeriods() throws {
        let audio = try makeRig()
        try audio.rig.engine.makePlayer(with: HapticPattern(events: tapWithClick(at: 0.2))).start(atTime: 0)
        audio.rig.run(until: 0.05)
        // Services only: the engine's own status polls are not counted.
        let services = { audio.rig.scheduler.metrics.dispatched - audio.rig.engine.monitoringActionCount }
        let before = services()
        // The timing thread stalls for 20 periods (53 ms); then it runs on for two more.
        audio.rig.board.clock.advance(by: format.duration(ofFrames: 20 * format.periodFrames))
        audio.rig.run(until: audio.rig.now.seconds + 2 * format.duration(ofFrames: format.periodFrames).secondsValue)
        let after = services()
        XCTAssertLessThanOrEqual(after - before, 3, "one late service, then one a period: not 20 back to back")
        XCTAssertGreaterThanOrEqual(after - before, 2)
    }

    func testPianoSoundsPlayAndWaitUntilFinishedWaitsForTheSound() throws {
        let audio = try makeRig()
        let piano = HapticPiano(engine: audio.rig.engine)
        try piano.play([.sound(.file(name: "click", extension: "wav")), .waitUntilFinished, .hapticFeedback(.impact(.heavy))])
        audio.rig.run(until: 0.3)
        let schedule = piano.schedule
        XCTAssertEqual(schedule.count, 2)
        XCTAssertEqual(schedule[0].end - schedule[0].start, .milliseconds(10), "the click's length")
        XCTAssertEqual(schedule[1].start, schedule[0].end)
        let onset = try XCTUnwrap(audio.onsets.first)
        XCTAssertLessThanOrEqual(abs((onset - schedule[0].start).nanoseconds), 21_000)
        XCTAssertEqual(audio.rig.goTimes.count, 1)
    }

    func testAPianoSoundPlayedAgainRestartsInsteadOfPilingUp() throws {
        let audio = try makeRig()
        let piano = HapticPiano(engine: audio.rig.engine)
        try piano.play([.sound(.file(name: "click", extension: "wav")), .wait(0.004), .sound(.file(name: "click", extension: "wav"))])
        audio.rig.run(until: 0.2)
        let start = try XCTUnwrap(piano.schedule.first).start
        let left = audio.sink.channel(0)
        let first = try XCTUnwrap(left.indices.first { left[$0] != 0 && audio.sink.playTime(ofFrame: $0).map { $0 >= start } == true })
        // After the first click's 1 ms fade, only the restarted click sounds, for its full 10 ms
        // (a mono file panned to the centre: 0.5 × √½ on each side).
        let level = 0.5 * 0.5.squareRoot()
        for frame in first + 250..<first + 670 {
            XCTAssertEqual(left[frame], level, accuracy: 1e-3, "frame \(frame - first)")
        }
        XCTAssertEqual(SignalMeasurement.peak(of: left, in: first + 675..<first + 1000), 0, "ends 14 ms after the first start")
        try piano.cancel()
    }

    func testPlaysAudioOnlyPlaysTheSoundAndLeavesTheActuatorAtRest() throws {
        let audio = try makeRig()
        audio.rig.engine.playsAudioOnly = true
        let player = try audio.rig.engine.makePlayer(with: HapticPattern(events: tapWithClick(at: 0.1) + [TestPatterns.continuous(at: 0.2, duration: 0.1)]))
        try player.start(atTime: 0.05)
        audio.rig.run(until: 0.6)
        XCTAssertEqual(audio.onsets.count, 1, "the sound plays")
        XCTAssertTrue(audio.rig.goTimes.isEmpty, "no ROM effect")
        XCTAssertTrue(audio.rig.writes(to: 0x02).allSatisfy { $0.value == 0 }, "no drive")
        XCTAssertEqual(audio.rig.drive(at: 0.27), 0)
    }
}

final class EnginePCMActuatorTests: XCTestCase {
    func testPCMDriveStartsOnItsDeadlineAndStreamsWithoutGaps() throws {
        // On a device of its own, and shared through dshare at every phase of the device's periods
        // (the end of the last block reaches such a device only with the write after it).
        let format = PCMFormat.lowLatency(sampleRate: 48_000, channels: 4)
        try playDrive(sharing: .exclusive)
        for phase in stride(from: 0, to: format.periodFrames, by: format.periodFrames / 8) {
            try playDrive(sharing: .direct(periodPhase: format.duration(ofFrames: phase)))
        }
    }

    private func playDrive(sharing: PCMCaptureSink.Sharing, file: StaticString = #filePath, line: UInt = #line) throws {
        let clock = VirtualClock()
        let format = PCMFormat.lowLatency(sampleRate: 48_000, channels: 4)
        let configuration = PCMActuatorConfiguration(kind: .lra, format: format, channelMap: try PCMChannelMap(deviceChannels: 4, channels: [2, 3]), resonantFrequency: 170, maximumAmplitude: 1)
        let box = Collected<PCMCaptureSink>()
        let actuator = PCMActuator(name: "lra", configuration: configuration, clock: clock) { () throws(PCMError) -> any PCMSink in
            let sink = try PCMCaptureSink(name: "sim pcm", format: format, sharing: sharing, clock: clock)
            box.append(sink)
            return sink
        }
        let scheduler = DeadlineScheduler(clock: clock)
        let engine = HapticEngine(actuators: ["lra": actuator], clock: clock, scheduler: scheduler)
        try engine.start()
        let player = try engine.makePlayer(with: HapticPattern(events: [TestPatterns.continuous(at: 0.1, duration: 0.05, sharpness: 1)]))
        try player.start(atTime: 0.05)
        scheduler.run(until: .at(0.4))

        let sink = try XCTUnwrap(box.values.first)
        let coil = sink.channel(2)
        let first = try XCTUnwrap(coil.indices.first { coil[$0] != 0 })
        // The sine starts at zero, so its first non-zero sample is the second of the drive.
        let onset = try XCTUnwrap(sink.playTime(ofFrame: first - 1))
        XCTAssertLessThanOrEqual(abs((onset - .at(0.15)).nanoseconds), 1_000_000, "drive onset \(onset), \(sharing)", file: file, line: line)
        let last = try XCTUnwrap(coil.indices.last { coil[$0] != 0 })
        XCTAssertEqual(Double(last - first) / 48_000, 0.05, accuracy: 0.001, "one unbroken 50 ms drive, \(sharing)", file: file, line: line)
        XCTAssertTrue(sink.underruns.allSatisfy { $0.audioEnded >= .at(0.2) }, "no underrun inside the drive: \(sink.underruns)", file: file, line: line)
        XCTAssertEqual(try XCTUnwrap(SignalMeasurement.zeroCrossingFrequency(of: Array(coil[first...last]), sampleRate: 48_000)), 170, accuracy: 0.5, file: file, line: line)
    }
}

/// A playback device unplugged after some writes: later ones fail with ENODEV (19), as a USB
/// interface's do.
private final class UnpluggedSink: PCMSink {
    let name = "usb audio"
    let format = PCMFormat.lowLatency(sampleRate: 48_000, channels: 2)
    var bufferFrames: Int { 4 * format.periodFrames }
    var writesLeft = 60
    func write(_ interleavedSamples: [Int16]) throws(PCMError) -> Int {
        guard writesLeft > 0 else { throw .io(device: name, errno: .init(rawValue: 19)) }
        writesLeft -= 1
        return interleavedSamples.count / format.channels
    }
    func queuedFrames() throws(PCMError) -> Int { 0 }
    func drain() throws(PCMError) {}
    func stop() throws(PCMError) {}
}

final class EngineAudioFaultTests: XCTestCase {
    func testALostSoundDeviceStopsTheEngineAndLeavesTheChipSafe() throws {
        let rig = EngineRig()
        let reasons = Collected<HapticEngine.StoppedReason>()
        rig.engine.stoppedHandler = { reasons.append($0) }
        let sounds = SoundLibrary(decoder: TableDecoder(sounds: [:]), sampleRate: 48_000, folder: FileManager.default.temporaryDirectory)
        rig.engine.attachAudio(EngineAudio(output: AudioScheduler(sink: UnpluggedSink(), clock: rig.board.clock), sounds: sounds))
        try rig.engine.start()
        let hum = HapticEvent(type: .audioContinuous, time: 0, duration: 0.5)
        try rig.engine.makePlayer(with: HapticPattern(events: TestPatterns.buzz(duration: 0.5).events + [hum])).start(atTime: 0.01)
        rig.run(until: 0.05)
        XCTAssertGreaterThan(rig.drive(at: 0.05), 0, "buzzing while the sound device works")
        rig.run(until: 0.2)
        XCTAssertFalse(rig.engine.isRunning)
        XCTAssertEqual(reasons.values, [.systemError])
        rig.assertStoppedInStandby()
    }
}

/// Sound against haptics on a device whose position moves a period at a time (DMA
/// hardware): its delay read between two moves still counts frames that have left.
final class PeriodGranularAudioTests: XCTestCase {
    private let format = PCMFormat.lowLatency(sampleRate: 48_000, channels: 2)
    /// Taps with a sound each, at times that fall at every phase of the 2.7 ms period.
    private let times = (0..<12).map { 0.1 + Double($0) * 0.0437 }

    private func play(on sink: any PCMSink, rig: EngineRig, capture: PCMCaptureSink) throws -> [Duration] {
        let audio = EngineAudio(output: AudioScheduler(sink: sink, clock: rig.board.clock), sounds: SoundLibrary(
            decoder: TableDecoder(sounds: [:]), sampleRate: 48_000, folder: FileManager.default.temporaryDirectory
        ))
        rig.engine.attachAudio(audio)
        try rig.engine.start()
        let events = times.flatMap { [TestPatterns.transient(at: $0), HapticEvent(type: .audioContinuous, time: $0, duration: 0.02)] }
        try rig.engine.makePlayer(with: HapticPattern(events: events)).start(atTime: 0.05)
        rig.run(until: 1)
        XCTAssertEqual(audio.output.onsets.count, times.count)
        XCTAssertEqual(rig.goTimes.count, times.count)
        // When the device really plays each sound's first frame, against when the chip's GO landed.
        return zip(audio.output.onsets, rig.goTimes).compactMap { onset, go in capture.playTime(ofFrame: onset.frame).map { $0 - go } }
    }

    func testSoundsArePlacedFromTheTimestampedDelayWithinAFrameOfTheirTaps() throws {
        let rig = EngineRig()
        let sink = try PCMCaptureSink(name: "sim audio", format: format, positionGranularity: .period(halfOutOfPhaseWith: format), clock: rig.board.clock)
        let offsets = try play(on: sink, rig: rig, capture: sink)
        XCTAssertEqual(offsets.count, times.count)
        for offset in offsets {
            XCTAssertLessThanOrEqual(abs(offset.nanoseconds), 25_000, "sound − haptic onset \(offset): one frame is 21 µs")
        }
    }

    func testTheBareDelayPlacesSoundsUpToAPeriodEarly() throws {
        // Why the timestamp is needed: from snd_pcm_delay alone (no instant), sounds start early by
        // however long ago the device's position last moved.
        let rig = EngineRig()
        let capture = try PCMCaptureSink(name: "sim audio", format: format, positionGranularity: .period(halfOutOfPhaseWith: format), clock: rig.board.clock)
        let offsets = try play(on: DelayOnlySink(capture), rig: rig, capture: capture)
        let period = format.duration(ofFrames: format.periodFrames)
        XCTAssertTrue(offsets.allSatisfy { $0 <= .microseconds(25) && $0 > .zero - period - .microseconds(25) }, "\(offsets)")
        XCTAssertTrue(offsets.contains { $0 < .microseconds(-500) }, "some sound half a millisecond or more early: \(offsets)")
    }
}

/// A sink that reports only `snd_pcm_delay`, as one without position timestamps.
private final class DelayOnlySink: PCMSink {
    private let base: PCMCaptureSink

    init(_ base: PCMCaptureSink) {
        self.base = base
    }

    var name: String { base.name }
    var format: PCMFormat { base.format }
    var bufferFrames: Int { base.bufferFrames }
    func write(_ interleavedSamples: [Int16]) throws(PCMError) -> Int { try base.write(interleavedSamples) }
    func queuedFrames() throws(PCMError) -> Int { try base.queuedFrames() }
    func drain() throws(PCMError) { try base.drain() }
    func stop() throws(PCMError) { try base.stop() }
}
