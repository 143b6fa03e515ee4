import ActuatorHAL
import HardwareMocks
import XCTest
@testable import HapticRuntime

final class PCMDriveTests: XCTestCase {
    private let rate = 48_000

    private func configuration(_ kind: ActuatorKind, resonance: Double? = 170) throws -> PCMActuatorConfiguration {
        PCMActuatorConfiguration(kind: kind, format: .lowLatency(sampleRate: rate, channels: 4), channelMap: try PCMChannelMap(deviceChannels: 4, channels: [2, 3]), resonantFrequency: resonance, maximumAmplitude: 0.8)
    }

    private func drive(_ pattern: HapticPattern, _ kind: ActuatorKind) throws -> (signal: [Double], start: Double) {
        let program = PatternCompiler(capabilities: try configuration(kind).capabilities, options: CompilerOptions(pcmSampleRate: rate)).compile(pattern)
        let blocks = program.commands.compactMap { command -> (Double, [Int16])? in
            if case .pcm(let samples) = command.command { (command.time, samples) } else { nil }
        }
        let start = try XCTUnwrap(blocks.first).0
        // The last block is the silence behind the drive (see `PCMRenderer`).
        XCTAssertEqual(blocks.last.map { $0.1.allSatisfy { $0 == 0 } }, true)
        return (blocks.dropLast().flatMap(\.1).map { Double($0) / 32767 }, start)
    }

    private func continuous(_ time: Double, _ duration: Double, intensity: Double, sharpness: Double) -> HapticEvent {
        HapticEvent(type: .hapticContinuous, time: time, duration: duration, parameters: [EventParameter(.hapticIntensity, intensity), EventParameter(.hapticSharpness, sharpness)])
    }

    private func transient(_ time: Double, intensity: Double, sharpness: Double) -> HapticEvent {
        HapticEvent(type: .hapticTransient, time: time, parameters: [EventParameter(.hapticIntensity, intensity), EventParameter(.hapticSharpness, sharpness)])
    }

    func testAnLRAIsDrivenAtResonanceWhateverTheSharpness() throws {
        for sharpness in [0.0, 0.9] {
            let (signal, _) = try drive(HapticPattern(events: [continuous(0, 0.2, intensity: 0.5, sharpness: sharpness)]), .lra)
            XCTAssertEqual(try XCTUnwrap(SignalMeasurement.zeroCrossingFrequency(of: signal, sampleRate: rate)), 170, accuracy: 0.2)
            // Sharpness shades the strength of a drive locked to resonance.
            XCTAssertEqual(SignalMeasurement.peak(of: signal, in: 0..<signal.count), 0.5 * (0.8 + 0.2 * sharpness), accuracy: 1e-3)
        }
    }

    func testSharpnessShiftsAVoiceCoilsFrequencyAndAddsHarmonics() throws {
        for (sharpness, frequency) in [(0.0, 80.0), (0.5, 160), (1, 320)] {
            let (signal, _) = try drive(HapticPattern(events: [continuous(0, 0.25, intensity: 1, sharpness: sharpness)]), .voiceCoil)
            XCTAssertEqual(try XCTUnwrap(SignalMeasurement.zeroCrossingFrequency(of: signal, sampleRate: rate)), frequency, accuracy: 0.3, "sharpness \(sharpness)")
            let sine = signal.indices.map { sin(2 * Double.pi * frequency * Double($0) / Double(rate)) }
            let deviation = zip(signal, sine).map { abs($0 - $1) }.max() ?? 0
            if sharpness == 0 {
                XCTAssertLessThan(deviation, 1e-3, "a round voice-coil drive is a pure sine")
            } else {
                XCTAssertGreaterThan(deviation, 0.05, "a sharp one has harmonics")
            }
            XCTAssertLessThanOrEqual(SignalMeasurement.peak(of: signal, in: 0..<signal.count), 1)
        }
    }

    func testATransientRisesOverItsFirstCycleAndEndsWithABrakingHalfCycle() throws {
        let (signal, start) = try drive(HapticPattern(events: [transient(0.1, intensity: 1, sharpness: 1)]), .lra)
        XCTAssertEqual(start, 0.1, accuracy: 1e-12)
        let period = Double(rate) / 170
        // 10 ms at 170 Hz holds one whole cycle; the attack spans it, so this burst never reaches full drive.
        let firstHalf = SignalMeasurement.peak(of: signal, in: 0..<Int(period / 2))
        let secondHalf = SignalMeasurement.peak(of: signal, in: Int(period / 2)..<Int(period))
        XCTAssertLessThan(firstHalf, 0.5)
        XCTAssertGreaterThan(secondHalf, firstHalf)
        // The brake: half a cycle of opposite polarity right after the drive's last zero crossing.
        let brake = Array(signal[Int(period) + 2..<Int(period * 1.5) - 2])
        XCTAssertTrue(brake.allSatisfy { $0 < 0 }, "a normal next half-cycle would be positive")
        XCTAssertEqual(brake.min() ?? 0, -1, accuracy: 0.01, "braking at full amplitude")
        XCTAssertEqual(SignalMeasurement.peak(of: signal, in: Int(period * 1.5) + 1..<signal.count), 0, "silent after the brake")
    }

    func testTheDriveReachesTheActuatorsChannelsWithItsFrequencyAndEnvelope() throws {
        let clock = VirtualClock()
        let configuration = try configuration(.lra)
        var sink: PCMCaptureSink?
        let actuator = PCMActuator(name: "lra", configuration: configuration, clock: clock) { () throws(PCMError) -> any PCMSink in
            let opened = try PCMCaptureSink(format: configuration.format, bufferFrames: 48_000, clock: clock)
            sink = opened
            return opened
        }
        let pattern = HapticPattern(
            events: [continuous(0, 0.3, intensity: 1, sharpness: 0.5)],
            parameterCurves: [ParameterCurve(.hapticIntensityControl, time: 0, controlPoints: [ControlPoint(time: 0, value: 0), ControlPoint(time: 0.3, value: 1)])]
        )
        let program = PatternCompiler(capabilities: actuator.capabilities, options: CompilerOptions(pcmSampleRate: rate)).compile(pattern)
        for command in program.commands {
            switch command.command {
            case .prepare(let mode): try actuator.prepare(for: mode)
            case .pcm(let samples): try actuator.writePCM(samples)
            default: continue
            }
        }
        let captured = try XCTUnwrap(sink)
        // Drop the output latency's silence the actuator puts ahead of a fresh stream.
        let latency = 256
        let coil = Array(captured.channel(2).dropFirst(latency))
        XCTAssertEqual(coil, Array(captured.channel(3).dropFirst(latency)))
        XCTAssertEqual(SignalMeasurement.peak(of: captured.channel(0), in: 0..<coil.count), 0)
        XCTAssertEqual(try XCTUnwrap(SignalMeasurement.zeroCrossingFrequency(of: coil, sampleRate: rate)), 170, accuracy: 0.2)
        // The ramp, scaled by the 0.8 amplitude cap and the LRA's sharpness shading (0.9 at 0.5).
        for time in [0.1, 0.2, 0.29] {
            let frame = Int(time * Double(rate))
            let window = frame - Int(Double(rate) / 170 / 2)..<frame + Int(Double(rate) / 170 / 2)
            XCTAssertEqual(SignalMeasurement.peak(of: coil, in: window), 0.8 * 0.9 * time / 0.3, accuracy: 0.01, "at \(time) s")
        }
    }

    func testABrakeReachingTheNextTapMergesTheirSpansSoBlocksNeverOverlap() throws {
        // Sharpness 0.15 on a 170 Hz LRA: an 18.5 ms pulse holds three cycles (17.6 ms) and the brake
        // runs to 20.6 ms; a tap 19.8 ms later (more than the 1 ms join gap after the pulse) would
        // otherwise start a span inside the brake.
        let pattern = HapticPattern(events: [transient(0, intensity: 1, sharpness: 0.15), transient(0.0198, intensity: 1, sharpness: 0.15)])
        let program = PatternCompiler(capabilities: try configuration(.lra).capabilities, options: CompilerOptions(pcmSampleRate: rate)).compile(pattern)
        let blocks = program.commands.compactMap { command -> (Double, Int)? in
            if case .pcm(let samples) = command.command { (command.time, samples.count) } else { nil }
        }
        for (previous, next) in zip(blocks, blocks.dropFirst()) {
            XCTAssertGreaterThanOrEqual(next.0, previous.0 + Double(previous.1) / Double(rate) - 1e-9, "blocks at \(previous.0) and \(next.0) overlap")
        }
        let (signal, _) = try drive(pattern, .lra)
        let period = Double(rate) / 170
        let brake = Array(signal[Int(3 * period) + 2..<Int(3.5 * period) - 2])
        XCTAssertTrue(brake.allSatisfy { $0 < 0 }, "the first tap's brake is kept whole")
    }
}
