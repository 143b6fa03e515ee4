import ActuatorHAL
import HardwareMocks
import XCTest

final class PCMCaptureSinkTests: XCTestCase {
    private let mono48k = PCMFormat(sampleRate: 48_000, channels: 1, periodFrames: 240)

    private func ramp(_ count: Int) -> [Int16] {
        (0..<count).map { Int16($0 % 1000) }
    }

    func testQueuedFramesFollowTheVirtualClockAndFramesGetTheirPlayTimes() throws {
        let clock = VirtualClock(start: .zero + .milliseconds(100))
        let sink = try PCMCaptureSink(format: mono48k, clock: clock)
        XCTAssertEqual(try sink.write(ramp(480)), 480)
        XCTAssertEqual(try sink.queuedFrames(), 480)
        clock.advance(by: .milliseconds(5))
        XCTAssertEqual(try sink.queuedFrames(), 240)
        XCTAssertEqual(sink.playTime(ofFrame: 0), .zero + .milliseconds(100))
        XCTAssertEqual(sink.playTime(ofFrame: 240), .zero + .milliseconds(105))
        XCTAssertNil(sink.playTime(ofFrame: 480))

        XCTAssertEqual(try sink.write(ramp(48)), 48, "a write while running continues the stream")
        XCTAssertEqual(sink.playTime(ofFrame: 480), .zero + .milliseconds(110))
        clock.advance(by: .milliseconds(6))
        XCTAssertEqual(try sink.queuedFrames(), 0)
        XCTAssertEqual(sink.underruns, [])
    }

    /// A long run keeps only the newest frames that have played; frame numbers stay the stream's.
    func testACaptureLimitLetsGoOfOldPlayedFramesAndKeepsTheNewest() throws {
        let clock = VirtualClock()
        let sink = try PCMCaptureSink(format: mono48k, clock: clock)
        sink.captureLimit = 1_000
        var written: [Int16] = []
        for block in 0..<50 {
            let samples = (0..<240).map { Int16(block * 240 + $0) }
            _ = try sink.write(samples)
            written += samples
            clock.advance(by: .milliseconds(5))
        }
        XCTAssertEqual(sink.frameCount, 12_000, "every frame counted")
        let kept = sink.samples
        XCTAssertLessThanOrEqual(kept.count, 2_000 + 240)
        XCTAssertGreaterThanOrEqual(kept.count, 1_000)
        XCTAssertEqual(sink.firstCapturedFrame + kept.count, 12_000)
        XCTAssertEqual(kept, Array(written.suffix(kept.count)), "the newest frames, unchanged")
        XCTAssertEqual(sink.playTime(ofFrame: 11_760), .zero + .milliseconds(245), "play times count from the stream's start")
    }

    /// A stream that stops between plays (an underrun each time) keeps only the runs it still
    /// has frames of.
    func testACaptureLimitLetsGoOfOldRunsAndUnderrunsToo() throws {
        let clock = VirtualClock()
        let sink = try PCMCaptureSink(format: mono48k, clock: clock)
        sink.captureLimit = 1_000
        for _ in 0..<100 {
            _ = try sink.write(ramp(480))
            clock.advance(by: .milliseconds(20))
        }
        XCTAssertEqual(sink.frameCount, 48_000)
        XCTAssertLessThanOrEqual(sink.underruns.count, 6, "\(sink.underruns.count) underruns kept")
        XCTAssertEqual(sink.playTime(ofFrame: 47_520), .zero + .milliseconds(1_980), "the newest run's play times")
    }

    func testRunningPastTheQueuedAudioIsAnUnderrunAndTheNextWriteRestarts() throws {
        let clock = VirtualClock()
        let sink = try PCMCaptureSink(format: mono48k, clock: clock)
        _ = try sink.write(ramp(480))
        clock.advance(by: .milliseconds(25))
        XCTAssertEqual(try sink.queuedFrames(), 0)
        XCTAssertFalse(sink.isRunning)
        XCTAssertEqual(sink.underruns, [.init(audioEnded: .zero + .milliseconds(10), restarted: nil)])

        clock.advance(by: .milliseconds(5))
        _ = try sink.write(ramp(240))
        XCTAssertEqual(sink.underruns, [.init(audioEnded: .zero + .milliseconds(10), restarted: .zero + .milliseconds(30))])
        XCTAssertEqual(sink.playTime(ofFrame: 480), .zero + .milliseconds(30), "audio resumes after a gap")
        XCTAssertEqual(sink.frameCount, 720)
    }

    func testDrainAdvancesToTheEndAndIsNoUnderrun() throws {
        let clock = VirtualClock()
        let sink = try PCMCaptureSink(format: mono48k, clock: clock)
        _ = try sink.write(ramp(960))
        try sink.drain()
        XCTAssertEqual(clock.now, .zero + .milliseconds(20))
        XCTAssertFalse(sink.isRunning)
        clock.advance(by: .milliseconds(50))
        _ = try sink.write(ramp(48))
        XCTAssertEqual(sink.underruns, [], "a drained stream was stopped on purpose")
        XCTAssertEqual(sink.playTime(ofFrame: 960), .zero + .milliseconds(70))
    }

    func testASharedDeviceCopiesAWriteOnlyUpToItsWindowAndTheRestAtTheNextWriteOrDrain() throws {
        // dshare/dmix: a write reaches the device up to one buffer (960 frames) past the start of
        // the device period playing, the rest with the client's next write or drain.
        let clock = VirtualClock()
        let direct = PCMCaptureSink.Sharing.direct(periodPhase: .milliseconds(2))
        let tone = [Int16](repeating: 7, count: 960)

        // Written at 3 ms, a millisecond (48 frames) into a device period: 48 frames do not fit,
        // and with no write after them they play as silence.
        let quiet = try PCMCaptureSink(format: mono48k, sharing: direct, clock: clock)
        clock.advance(by: .milliseconds(3))
        _ = try quiet.write(tone)
        clock.advance(by: .milliseconds(30))
        XCTAssertEqual(quiet.samples.filter { $0 != 0 }.count, 912)
        XCTAssertEqual(quiet.samples.suffix(48), ArraySlice(repeatElement(0, count: 48)))
        XCTAssertEqual(quiet.framesLostBeforeTheDevice, 48)
        XCTAssertEqual(try quiet.queuedFrames(), 0, "the client counts them as played")

        // Made at 33 ms (device periods begin at 35, 40, …), written 3 ms into a period: 816
        // frames fit. A write 4 ms later, 2 ms into the next period, copies those and 96 of its
        // own 240; the drain copies the rest.
        let fed = try PCMCaptureSink(format: mono48k, sharing: direct, clock: clock)
        _ = try fed.write(tone)
        XCTAssertEqual(fed.framesOnDevice, 816)
        clock.advance(by: .milliseconds(4))
        _ = try fed.write([Int16](repeating: 7, count: 240))
        XCTAssertEqual(fed.framesOnDevice, 1056)
        try fed.drain()
        XCTAssertEqual(fed.samples.filter { $0 != 0 }.count, 1200)
        XCTAssertEqual(fed.framesLostBeforeTheDevice, 0)

        let exclusive = try PCMCaptureSink(format: mono48k, clock: clock)
        _ = try exclusive.write(tone)
        XCTAssertEqual(exclusive.framesOnDevice, 960, "a device of its own takes the whole write")
    }

    func testStopDropsWhatHasNotPlayed() throws {
        let clock = VirtualClock()
        let sink = try PCMCaptureSink(format: mono48k, clock: clock)
        _ = try sink.write(ramp(480))
        clock.advance(by: .milliseconds(2))
        try sink.stop()
        XCTAssertEqual(sink.frameCount, 96)
        XCTAssertEqual(try sink.queuedFrames(), 0)
        XCTAssertEqual(sink.underruns, [])
    }

    func testWriteIntoAFullBufferBlocksOnVirtualTimeUntilThereIsRoom() throws {
        let clock = VirtualClock()
        let format = PCMFormat(sampleRate: 8_000, channels: 1, periodFrames: 80)
        let sink = try PCMCaptureSink(format: format, bufferFrames: 320, clock: clock)
        XCTAssertEqual(try sink.write(ramp(800)), 800)
        // 800 frames into a 320-frame buffer: the last write fits once frame 480 starts playing.
        XCTAssertEqual(clock.now, .zero + .milliseconds(60))
        XCTAssertEqual(try sink.queuedFrames(), 320)
        XCTAssertEqual(sink.channel(0), ramp(800).map { Double($0) / 32768 })
    }

    func testChannelsAreDeinterleavedAndScaledToUnitRange() throws {
        let clock = VirtualClock()
        let stereo = PCMFormat(sampleRate: 48_000, channels: 2, periodFrames: 64)
        let sink = try PCMCaptureSink(format: stereo, clock: clock)
        _ = try sink.write([16384, -16384, 32767, .min])
        XCTAssertEqual(sink.channel(0), [0.5, 32767.0 / 32768])
        XCTAssertEqual(sink.channel(1), [-0.5, -1.0])
        XCTAssertEqual(sink.channel(2), [])
    }

    func testPartialFramesAndBadFormatsAreTypedErrors() throws {
        let clock = VirtualClock()
        let stereo = PCMFormat(sampleRate: 48_000, channels: 2, periodFrames: 64)
        let sink = try PCMCaptureSink(name: "capture", format: stereo, clock: clock)
        XCTAssertThrowsError(try sink.write([1, 2, 3])) { error in
            XCTAssertEqual(error as? PCMError, .io(device: "capture", errno: .invalidArgument))
        }
        XCTAssertEqual(sink.frameCount, 0)
        XCTAssertThrowsError(try PCMCaptureSink(format: PCMFormat(sampleRate: 0, channels: 1, periodFrames: 64), clock: clock))
        XCTAssertThrowsError(try PCMCaptureSink(format: stereo, bufferFrames: 32, clock: clock))
    }
}

extension PCMCaptureSinkTests {
    func testQueueArithmeticHoldsAfterDaysOfVirtualTime() throws {
        let clock = VirtualClock(start: .zero + .seconds(400_000))
        let sink = try PCMCaptureSink(format: PCMFormat(sampleRate: 48_000, channels: 1, periodFrames: 240), clock: clock)
        _ = try sink.write([Int16](repeating: 0, count: 480))
        clock.advance(by: .milliseconds(5))
        XCTAssertEqual(try sink.queuedFrames(), 240)
    }
}
