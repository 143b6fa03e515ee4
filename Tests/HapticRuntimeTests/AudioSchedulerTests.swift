import ActuatorHAL
import HardwareMocks
import XCTest
@testable import HapticRuntime

final class AudioSchedulerTests: XCTestCase {
    private let format = PCMFormat.lowLatency(sampleRate: 48_000, channels: 2)
    /// Half a frame at 48 kHz: the most a sound placed on the nearest frame can be off.
    private let halfFrame = Duration.nanoseconds(10_417)

    private struct Rig {
        let clock: VirtualClock
        let sink: PCMCaptureSink
        let scheduler: AudioScheduler

        /// Services the scheduler once per period until `end`, as the engine's timing thread does.
        func run(until end: MonotonicInstant) throws {
            let period = sink.format.duration(ofFrames: sink.format.periodFrames)
            while clock.now < end {
                try scheduler.service()
                clock.advance(by: period)
            }
        }

        /// Frames of channel 0 louder than `threshold` that follow a quieter frame: sound onsets.
        func onsetFrames(threshold: Double = 0.05) -> [Int] {
            let left = sink.channel(0)
            return left.indices.filter { abs(left[$0]) > threshold && ($0 == 0 || abs(left[$0 - 1]) <= threshold) }
        }
    }

    private func rig(start: MonotonicInstant = .zero) throws -> Rig {
        let clock = VirtualClock(start: start)
        let sink = try PCMCaptureSink(name: "sim audio", format: format, clock: clock)
        return Rig(clock: clock, sink: sink, scheduler: AudioScheduler(sink: sink, clock: clock))
    }

    /// A 2 ms burst, loud from its first frame.
    private func burst(key: String? = nil) -> AudioVoice {
        AudioVoice(key: key, channels: 2, samples: [Float](repeating: 0.5, count: 2 * 96))
    }

    private func seconds(_ value: Double) -> MonotonicInstant { MonotonicInstant(nanoseconds: Int64((value * 1e9).rounded())) }

    private func assertClose(_ a: MonotonicInstant, _ b: MonotonicInstant, within limit: Duration, _ message: String = "", line: UInt = #line) {
        XCTAssertLessThanOrEqual(abs((a - b).nanoseconds), limit.nanoseconds, "\(a) vs \(b) \(message)", line: line)
    }

    func testEachSoundsFirstSampleLeavesTheDeviceAtItsDeadline() throws {
        let rig = try rig(start: seconds(3))
        let deadlines = [seconds(3.1 + 7e-6), seconds(3.15), seconds(3.2003)]
        rig.scheduler.schedule(burst(), at: deadlines[0])
        try rig.run(until: seconds(3.12))
        // Scheduled while the stream runs, a few periods ahead.
        rig.scheduler.schedule(burst(), at: deadlines[1])
        rig.scheduler.schedule(burst(), at: deadlines[2])
        try rig.run(until: seconds(3.3))

        let onsets = rig.onsetFrames()
        XCTAssertEqual(onsets.count, 3)
        for (frame, deadline) in zip(onsets, deadlines) {
            assertClose(try XCTUnwrap(rig.sink.playTime(ofFrame: frame)), deadline, within: halfFrame)
        }
        XCTAssertEqual(rig.scheduler.onsets.map(\.deadline), deadlines)
        for report in rig.scheduler.onsets {
            XCTAssertLessThanOrEqual(abs(report.offset.nanoseconds), halfFrame.nanoseconds + 1, "reported offset")
            assertClose(try XCTUnwrap(rig.sink.playTime(ofFrame: report.frame)), report.onset, within: .nanoseconds(21_000), "reported onset")
        }
        XCTAssertEqual(rig.scheduler.underruns, 0)
        XCTAssertTrue(rig.sink.underruns.isEmpty)
    }

    func testAPatternsSoundsStartWithin1msOfTheirHapticDeadlines() throws {
        let rig = try rig()
        let pattern = HapticPattern(events: [
            HapticEvent(type: .hapticTransient, time: 0.25),
            HapticEvent(type: .audioContinuous, time: 0.25, duration: 0.05, parameters: [EventParameter(.audioBrightness, 0)]),
            HapticEvent(type: .hapticTransient, time: 0.4),
            HapticEvent(type: .audioContinuous, time: 0.4, duration: 0.05, parameters: [EventParameter(.audioPitch, 1), EventParameter(.audioBrightness, 0)]),
        ])
        let voices = try AudioPatternRenderer(sampleRate: 48_000, channels: 2)
            .voices(for: pattern, sounds: SoundLibrary(decoder: TableDecoder(sounds: [:]), sampleRate: 48_000, folder: FileManager.default.temporaryDirectory))
        XCTAssertEqual(voices.count, 2, "haptic events are left to the actuators")
        let origin = seconds(0.02)
        rig.scheduler.schedule(voices, startingAt: origin)
        try rig.run(until: seconds(0.5))

        // A sine starts at zero: its first loud-enough sample is a fraction of a cycle in; look for
        // the first non-zero frame instead.
        let left = rig.sink.channel(0)
        for event in pattern.events where !event.type.isHaptic {
            let deadline = origin + .nanoseconds(Int64(event.time * 1e9))
            // The stream started at time 0, so frame n plays near n / 48 kHz; start 5 ms early.
            let searchFrom = Int((deadline.seconds - 0.005) * 48_000)
            let first = try XCTUnwrap((searchFrom..<left.count).first { left[$0] != 0 && left[$0 - 1] == 0 })
            // The tone's first sample is sin(0) = 0; its second is the first non-zero one.
            let onset = try XCTUnwrap(rig.sink.playTime(ofFrame: first - 1))
            assertClose(onset, deadline, within: .milliseconds(1), "audio onset vs haptic deadline at \(event.time) s")
            assertClose(onset, deadline, within: halfFrame, "and in fact to the nearest frame")
        }
    }

    func testAnUnderrunIsCountedAndPlacementRecovers() throws {
        let rig = try rig()
        try rig.run(until: seconds(0.05))
        rig.clock.advance(by: .milliseconds(30))
        try rig.scheduler.service()
        XCTAssertEqual(rig.scheduler.underruns, 1)
        XCTAssertEqual(rig.sink.underruns.count, 1)

        let deadline = rig.clock.now + .milliseconds(20)
        rig.scheduler.schedule(burst(), at: deadline)
        try rig.run(until: deadline + .milliseconds(20))
        let frame = try XCTUnwrap(rig.onsetFrames().first)
        assertClose(try XCTUnwrap(rig.sink.playTime(ofFrame: frame)), deadline, within: halfFrame)
        XCTAssertEqual(rig.scheduler.underruns, 1)
    }

    func testALateSoundStartsAtOnceAndReportsItsLateness() throws {
        let rig = try rig()
        try rig.run(until: seconds(0.05))
        let deadline = rig.clock.now - .milliseconds(5)
        rig.scheduler.schedule(burst(), at: deadline)
        try rig.run(until: seconds(0.08))
        let report = try XCTUnwrap(rig.scheduler.onsets.first)
        let frame = try XCTUnwrap(rig.onsetFrames().first)
        XCTAssertEqual(report.frame, frame)
        XCTAssertGreaterThan(report.offset, .milliseconds(5))
        XCTAssertLessThan(report.offset, .milliseconds(5) + rig.sink.format.duration(ofFrames: 2 * 128 + 1), "behind by at most the queue")
    }

    func testOnASharedDeviceASoundIsWholeOrItsStreamRanDry() throws {
        // dshare and dmix copy a write into the shared buffer only as far as one buffer past the
        // period the device plays; the rest waits for the next write. A service that ran a little
        // late topped the queue up past that window (its whole-period writes end up to a period
        // beyond three periods ahead), and when the next one ran late enough the rest had its turn
        // before it was copied: the lane once captured its noise burst with the first 49 frames
        // silent and no underrun reported. Every frame written must reach the device at once, so
        // a service late enough to lose audio is an underrun the scheduler counts. Services on a
        // one-period grid as the engine runs them, one of them late by a part of a period and the
        // next by two to four periods, at every phase of the device's periods, while the sound is
        // being written.
        let period = format.periodFrames
        var silent: [String] = []
        // Positions read a period at a time (DMA interrupts) or to the frame (DMA with residue),
        // each against every phase of the device's periods.
        for phase in stride(from: 0, to: period, by: period / 4) {
            let phaseDuration = format.duration(ofFrames: phase)
            for granularity in [PCMCaptureSink.PositionGranularity.period(phase: phaseDuration), .frame] {
                for late in stride(from: period / 8, to: period, by: period / 4) {
                    for stall in stride(from: 2 * period, through: 4 * period, by: period / 2) {
                        for lateService in [18, 22, 26] {
                            let sink = try PCMCaptureSink(
                                name: "sim audio", format: format, positionGranularity: granularity,
                                sharing: .direct(periodPhase: phaseDuration), clock: VirtualClock(start: .zero))
                            let underruns = try playLongSound(on: sink, lateService: lateService, lateBy: late, nextLateBy: stall)
                            let played = sink.channel(0).filter { $0 != 0 }.count
                            if played != 2400 && underruns == 0 {
                                silent.append("\(granularity), phase \(phase), service \(lateService) late by \(late) frames, the next by \(stall): \(played) of 2400 frames")
                            }
                        }
                    }
                }
            }
        }
        XCTAssertEqual(silent, [], "part of the sound played as silence with no underrun counted")
    }

    /// Plays a 2400-frame sound due at 20 ms on `sink`, serviced 60 times on a one-period grid as
    /// the engine does it: a late service runs when it can and the next on the grid again, or a
    /// period after the late one once that has passed the grid. Service `lateService` runs
    /// `lateBy` frames late, the next `nextLateBy`. Returns the underruns the scheduler counted.
    private func playLongSound(on sink: PCMCaptureSink, lateService: Int, lateBy late: Int, nextLateBy stall: Int) throws -> Int {
        let clock = sink.clock
        let scheduler = AudioScheduler(sink: sink, clock: clock)
        scheduler.schedule(AudioVoice(key: nil, channels: 2, samples: [Float](repeating: 0.5, count: 2 * 2400)), at: .zero + .milliseconds(20))
        let periodDuration = format.duration(ofFrames: format.periodFrames)
        var due = MonotonicInstant.zero
        for index in 0..<60 {
            let delay = index == lateService ? late : index == lateService + 1 ? stall : 0
            clock.advance(to: max(clock.now, due + format.duration(ofFrames: delay)))
            try scheduler.service()
            due = due + periodDuration > clock.now ? due + periodDuration : clock.now + periodDuration
        }
        return scheduler.underruns
    }

    func testMutingSilencesAndCancelDropsSounds() throws {
        let rig = try rig()
        rig.scheduler.isMuted = true
        rig.scheduler.schedule(burst(), at: seconds(0.01))
        try rig.run(until: seconds(0.03))
        XCTAssertTrue(rig.onsetFrames().isEmpty)
        rig.scheduler.isMuted = false
        rig.scheduler.schedule(burst(), at: seconds(0.05))
        rig.scheduler.cancelAll()
        XCTAssertTrue(rig.scheduler.isIdle)
        try rig.run(until: seconds(0.08))
        XCTAssertTrue(rig.onsetFrames().isEmpty)
    }
}
