import ActuatorHAL
import HardwareMocks
import XCTest

final class PCMActuatorTests: XCTestCase {
    private let format = PCMFormat(sampleRate: 48_000, channels: 4, periodFrames: 128)

    /// An LRA on channels 3–4 of a 4-channel device, at half scale.
    private func configuration() throws -> PCMActuatorConfiguration {
        PCMActuatorConfiguration(
            kind: .lra, format: format, channelMap: try PCMChannelMap(deviceChannels: 4, channels: [2, 3]),
            resonantFrequency: 170, maximumAmplitude: 0.5
        )
    }

    private func actuator(clock: VirtualClock, sinks: Box) throws -> PCMActuator {
        PCMActuator(name: "haptics", configuration: try configuration(), clock: clock) { () throws(PCMError) -> any PCMSink in
            let sink = try PCMCaptureSink(name: "hw:haptic", format: self.format, clock: clock)
            sinks.opened.append(sink)
            return sink
        }
    }

    /// The same actuator on a device that is always `sink`.
    private func actuator(clock: VirtualClock, on sink: any PCMSink) throws -> PCMActuator {
        PCMActuator(name: "haptics", configuration: try configuration(), clock: clock) { () throws(PCMError) -> any PCMSink in sink }
    }

    final class Box { var opened: [PCMCaptureSink] = [] }

    /// A device that joins a (re)started stream `joinDelay` frames late, as ALSA dshare joins the
    /// shared stream at its next period boundary: its delay counts those frames too.
    final class LateJoiningSink: PCMSink {
        let name = "dshare"
        let format: PCMFormat
        let joinDelay: Int
        var bufferFrames: Int { 4 * format.periodFrames }
        private(set) var written: [Int16] = []
        init(format: PCMFormat, joinDelay: Int) {
            self.format = format
            self.joinDelay = joinDelay
        }
        func write(_ interleavedSamples: [Int16]) throws(PCMError) -> Int {
            written += interleavedSamples
            return interleavedSamples.count / format.channels
        }
        func queuedFrames() throws(PCMError) -> Int { written.isEmpty ? 0 : written.count / format.channels + joinDelay }
        func drain() throws(PCMError) {}
        func stop() throws(PCMError) { written = [] }
    }

    func testARestartedStreamIsPaddedByTheDevicesOwnDelaySoTheDriveStartsOnTime() throws {
        let clock = VirtualClock()
        let sink = LateJoiningSink(format: format, joinDelay: 100)
        let lra = try actuator(clock: clock, on: sink)
        try lra.prepare(for: .pcm)
        try lra.writePCM([32767])
        // Due three periods (384 frames) from now: a period to start the stream, then the device
        // says the next frame plays 128 + 100 frames from now, so 156 more frames of silence.
        let frames = sink.written.count / 4
        XCTAssertEqual(frames, 128 + 156 + 1)
        XCTAssertTrue(sink.written.prefix((128 + 156) * 4).allSatisfy { $0 == 0 })
        XCTAssertEqual(sink.written[(128 + 156) * 4 + 2], 16384, "the drive's first frame, heard 384 frames from now")
    }

    func testALateWriteStillStartsTheRestartedDriveAtItsDeadline() throws {
        let clock = VirtualClock()
        let sink = LateJoiningSink(format: format, joinDelay: 0)
        let lra = try actuator(clock: clock, on: sink)
        try lra.prepare(for: .pcm)
        // Written 200 frames before its deadline instead of the usual 384: 128 to start the
        // stream, then 72 more of silence.
        try lra.writePCM([32767], startingAt: clock.now + format.duration(ofFrames: 200))
        XCTAssertEqual(sink.written.count / 4, 200 + 1)
        XCTAssertEqual(sink.written[200 * 4 + 2], 16384)
        // Past its deadline: no silence beyond the period that starts the stream.
        try lra.stop()
        try lra.writePCM([32767], startingAt: clock.now - format.duration(ofFrames: 10))
        XCTAssertEqual(sink.written.count / 4, 128 + 1)
    }

    func testPowerStatesOpenPrepareAndCloseTheStream() throws {
        let clock = VirtualClock()
        let sinks = Box()
        let lra = try actuator(clock: clock, sinks: sinks)
        XCTAssertEqual(lra.powerState, .off)
        XCTAssertThrowsError(try lra.writePCM([1])) { error in
            XCTAssertEqual(error as? PCMActuatorError, .notReady(actuator: "haptics", state: .off))
        }
        let wake = try lra.wake()
        XCTAssertEqual(wake.to, .standby)
        XCTAssertEqual(sinks.opened.count, 1)
        XCTAssertEqual(try lra.wake().elapsed, .zero, "waking an awake actuator does nothing")
        XCTAssertThrowsError(try lra.prepare(for: .romSequence))
        try lra.prepare(for: .pcm)
        XCTAssertEqual(lra.powerState, .ready)
        XCTAssertEqual(lra.pcmOutputLatency, format.duration(ofFrames: 384))
        XCTAssertEqual(lra.budget(for: .prepare), format.duration(ofFrames: 128) + format.duration(ofFrames: 384))
        try lra.sleep()
        XCTAssertEqual(lra.powerState, .off)
        try lra.prepare(for: .pcm)
        XCTAssertEqual(sinks.opened.count, 2, "preparing from off wakes, reopening the device")
        XCTAssertTrue(lra.capabilities.supportsPCM)
        XCTAssertFalse(lra.capabilities.frequencyAdjustable, "an LRA is driven at resonance")
    }

    func testDriveGoesToTheMappedChannelsScaledByTheMaximumAmplitude() throws {
        let clock = VirtualClock()
        let sinks = Box()
        let lra = try actuator(clock: clock, sinks: sinks)
        try lra.prepare(for: .pcm)
        try lra.writePCM([32767, -32768, 1000])
        let sink = try XCTUnwrap(sinks.opened.first)
        // A stopped stream first gets the output latency (three periods) of silence.
        XCTAssertEqual(sink.frameCount, 384 + 3)
        XCTAssertTrue(sink.samples.prefix(384 * 4).allSatisfy { $0 == 0 })
        XCTAssertEqual(Array(sink.samples.suffix(12)), [0, 0, 16384, 16384, 0, 0, -16384, -16384, 0, 0, 500, 500])
        try lra.writePCM([2])
        XCTAssertEqual(sink.frameCount, 384 + 4, "a running stream gets no more padding")
        XCTAssertTrue(try lra.status().isPlaying)
        try lra.stop()
        XCTAssertFalse(try lra.status().isPlaying)
        XCTAssertEqual(lra.powerState, .ready)
    }

    func testChannelMapsAreChecked() throws {
        XCTAssertThrowsError(try PCMChannelMap(deviceChannels: 4, channels: [4])) { error in
            XCTAssertEqual("\(error)", "channel 5 is not one of the device's 4 channels (1-4)")
        }
        XCTAssertThrowsError(try PCMChannelMap(deviceChannels: 2, channels: [1, 1]))
        XCTAssertThrowsError(try PCMChannelMap(deviceChannels: 2, channels: []))
        XCTAssertEqual(try PCMChannelMap(deviceChannels: 4, channels: [3, 2]).description, "3-4 of 4")
        XCTAssertEqual(try PCMChannelMap.all(of: 2).interleave([7]), [7, 7])
    }

    func testADeviceWithAnotherChannelCountIsRefused() throws {
        let clock = VirtualClock()
        let configuration = PCMActuatorConfiguration(kind: .voiceCoil, format: format, channelMap: try PCMChannelMap(deviceChannels: 4, channels: [0]), resonantFrequency: nil, maximumAmplitude: 1)
        let actuator = PCMActuator(name: "coil", configuration: configuration, clock: clock) { () throws(PCMError) -> any PCMSink in
            try PCMCaptureSink(name: "stereo", format: PCMFormat(sampleRate: 48_000, channels: 2, periodFrames: 128), clock: clock)
        }
        XCTAssertThrowsError(try actuator.wake()) { error in
            XCTAssertEqual(error as? PCMActuatorError, .channelMismatch(actuator: "coil", device: "stereo", deviceChannels: 2, mapChannels: 4))
        }
        XCTAssertEqual(actuator.powerState, .off)
    }
}
