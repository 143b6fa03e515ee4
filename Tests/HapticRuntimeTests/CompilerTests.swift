import ActuatorHAL
import Foundation
import HardwareMocks
import XCTest
@testable import HapticRuntime

final class CompilerTests: XCTestCase {
    // MARK: fixtures

    private func capabilities(
        rom: ROMLibrary? = .lra, realtime: Bool = true, signed: Bool = false, pcm: Bool = false,
        kind: ActuatorKind = .lra, adjustable: Bool = false, busHz: Int = 400_000
    ) -> ActuatorCapabilities {
        ActuatorCapabilities(
            kind: kind, romLibrary: rom, supportsRealtimeAmplitude: realtime, supportsSignedAmplitude: signed,
            supportsPCM: pcm, resonantFrequency: 175, frequencyAdjustable: adjustable,
            // One RTP_INPUT register write: START, address, register, value, STOP.
            amplitudeUpdateCost: I2CWireTime.duration(of: [.write([0x02, 0x7F])], speedHz: busHz),
            maximumContinuousDrive: nil
        )
    }

    private func transient(_ time: Double, _ intensity: Double, _ sharpness: Double) -> HapticEvent {
        HapticEvent(type: .hapticTransient, time: time, parameters: [
            EventParameter(.hapticIntensity, intensity), EventParameter(.hapticSharpness, sharpness),
        ])
    }

    private func continuous(_ time: Double, _ duration: Double, intensity: Double = 1, sharpness: Double = 1, attack: Double = 0, release: Double = 0) -> HapticEvent {
        HapticEvent(type: .hapticContinuous, time: time, duration: duration, parameters: [
            EventParameter(.hapticIntensity, intensity), EventParameter(.hapticSharpness, sharpness),
            EventParameter(.attackTime, attack), EventParameter(.releaseTime, release),
        ])
    }

    /// The amplitude in force at `time`: the last `.amplitude` at or before it (0 before any).
    private func amplitude(in program: ActuatorProgram, at time: Double) -> Double {
        var value = 0.0
        for command in program.commands where command.time <= time + 1e-12 {
            if case .amplitude(let amplitude) = command.command { value = amplitude }
        }
        return value
    }

    private func amplitudeCommands(_ program: ActuatorProgram) -> [(time: Double, value: Double)] {
        program.commands.compactMap { command in
            if case .amplitude(let value) = command.command { return (command.time, value) }
            return nil
        }
    }

    private func assertSorted(_ program: ActuatorProgram, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(program.commands.map(\.time), program.commands.map(\.time).sorted(), file: file, line: line)
    }

    // MARK: ROM effects

    func testNearestROMEffectTable() {
        XCTAssertEqual(ROMEffectTable.nearest(intensity: 1.0, sharpness: 0.6)?.id, 1)
        XCTAssertEqual(ROMEffectTable.nearest(intensity: 0.3, sharpness: 0.1)?.id, 9)
        XCTAssertEqual(ROMEffectTable.nearest(intensity: 0.65, sharpness: 0.9)?.id, 5)
        XCTAssertEqual(ROMEffectTable.nearest(intensity: 0.95, sharpness: 0.95)?.id, 24)
        XCTAssertEqual(ROMEffectTable.nearest(intensity: 0.8, sharpness: 0.35)?.id, 22)
        XCTAssertNil(ROMEffectTable.nearest(intensity: 0.02, sharpness: 0.5))
        XCTAssertTrue(ROMEffectTable.markdownTable().contains("| 24 | Sharp Tick 1 - 100% | 1.0 | 1.0 |"))
    }

    /// With a filter: the nearest of the allowed effects, the earlier row on a tie — what filtering
    /// the table and taking its first nearest gives — asking the filter only about an effect that
    /// is nearer than every one it has allowed (the compiler's filter is a drive-budget sum).
    func testNearestAllowedROMEffectIsTheNearestOfThoseAllowed() {
        var random = SplitMix64(seed: 0x40_4E57)
        let table = ROMEffectTable.transients
        // Grid points fall exactly between rows too, where ties are decided by the row order.
        let points = (0...20).flatMap { i in (0...20).map { s in (Double(i) / 20, Double(s) / 20) } }
        for (intensity, sharpness) in points {
            let allowedIDs = Set(table.map(\.id).filter { _ in Bool.random(using: &random) })
            var asked: [UInt8] = []
            let chosen = ROMEffectTable.nearest(intensity: intensity, sharpness: sharpness) { choice in
                asked.append(choice.id)
                return allowedIDs.contains(choice.id)
            }
            func distance(_ choice: ROMEffectChoice) -> Double {
                (choice.intensity - intensity) * (choice.intensity - intensity) + (choice.sharpness - sharpness) * (choice.sharpness - sharpness)
            }
            let allowed = table.filter { allowedIDs.contains($0.id) }
            let expected = intensity < ROMEffectTable.minimumIntensity ? nil
                : allowed.first { choice in allowed.allSatisfy { distance(choice) <= distance($0) } }
            XCTAssertEqual(chosen, expected, "at (\(intensity), \(sharpness)) with \(allowedIDs.sorted())")
            // Each asked effect was nearer than every allowed effect before it in the table.
            for id in asked {
                guard let position = table.firstIndex(where: { $0.id == id }) else { return XCTFail("asked about \(id)") }
                XCTAssertTrue(table[..<position].allSatisfy { !allowedIDs.contains($0.id) || distance(table[position]) < distance($0) },
                              "asked about \(id) at (\(intensity), \(sharpness)), which could not win")
            }
        }
    }

    func testTransientsOnAROMChipTriggerEffectsAfterAnEarlyPrepare() {
        let pattern = HapticPattern(events: [transient(0, 1.0, 0.6), transient(0.5, 0.3, 0.1)])
        let program = PatternCompiler(capabilities: capabilities(), options: CompilerOptions(modeSwitchCost: .milliseconds(2))).compile(pattern)
        XCTAssertEqual(program.commands, [
            TimedCommand(time: -0.002, command: .prepare(.romSequence)),
            TimedCommand(time: 0, command: .trigger([.effect(1)])),
            TimedCommand(time: 0.5, command: .trigger([.effect(9)])),
            TimedCommand(time: 0.56, command: .stop),
        ])
        XCTAssertEqual(program.leadTime, 0.002, accuracy: 1e-12)
        XCTAssertEqual(program.duration, 0.56, accuracy: 1e-12)
        XCTAssertTrue(program.warnings.isEmpty)
    }

    func testSimultaneousTransientsAreMixedIntoOneEffect() {
        let pattern = HapticPattern(events: [transient(0, 0.5, 0.2), transient(0, 0.5, 1.0)])
        let triggers = PatternCompiler(capabilities: capabilities()).compile(pattern).commands.filter {
            if case .trigger = $0.command { return true } else { return false }
        }
        // Sum 1.0, weighted sharpness 0.6 → Strong Click 100 %.
        XCTAssertEqual(triggers, [TimedCommand(time: 0, command: .trigger([.effect(1)]))])
    }

    func testWeakTransientIsSkippedWithAWarning() {
        let program = PatternCompiler(capabilities: capabilities()).compile(HapticPattern(events: [transient(0.1, 0.01, 0.5)]))
        XCTAssertTrue(program.commands.isEmpty)
        XCTAssertEqual(program.warnings.count, 1)
        XCTAssertTrue(program.warnings[0].description.contains("too weak"))
    }

    // MARK: amplitude streaming

    func testAmplitudeSamplesOfAnADSRContinuousEventMatchTheEnvelopeByHand() {
        // Attack 0.1 s, sustain at 1, release 0.2 s; starts at 0.1 s, lasts 0.5 s. Sharpness 1 keeps
        // the fixed-frequency amplitude factor at 1.
        let pattern = HapticPattern(events: [continuous(0.1, 0.5, attack: 0.1, release: 0.2)])
        let program = PatternCompiler(capabilities: capabilities(rom: nil)).compile(pattern)
        func byHand(_ t: Double) -> Double {
            let u = t - 0.1
            if u < 0 || u >= 0.5 { return 0 }
            return min(u / 0.1, 1, (0.5 - u) / 0.2)
        }
        for t in [0.1, 0.101, 0.125, 0.15, 0.2, 0.35, 0.45, 0.5, 0.55, 0.599] {
            XCTAssertEqual(amplitude(in: program, at: t), byHand(t), accuracy: 0.5 / 255 + 1e-9, "t = \(t)")
        }
        XCTAssertEqual(amplitude(in: program, at: 0.6), 0)
        let samples = amplitudeCommands(program)
        XCTAssertEqual(samples.last?.time ?? 0, 0.6, accuracy: 1e-9)
        for (a, b) in zip(samples, samples.dropFirst()) {
            XCTAssertNotEqual(a.value, b.value, "emitted only on change")
        }
        XCTAssertTrue(samples.filter { $0.time > 0.2 + 1e-9 && $0.time < 0.4 - 1e-9 }.isEmpty, "nothing during the sustain")
        XCTAssertEqual(program.commands.first, TimedCommand(time: 0.1 - 0.001, command: .prepare(.realtimeAmplitude)))
        XCTAssertEqual(program.commands.last?.command, .stop)
        assertSorted(program)
    }

    func testDynamicParametersAndCurvesShapeTheStream() {
        let pattern = HapticPattern(
            events: [continuous(0, 1)],
            parameters: [DynamicParameter(.hapticIntensityControl, value: 0.5, time: 0.2)],
            parameterCurves: [ParameterCurve(.hapticIntensityControl, time: 0.5, controlPoints: [
                ControlPoint(time: 0, value: 0), ControlPoint(time: 0.2, value: 1),
            ])]
        )
        let program = PatternCompiler(capabilities: capabilities(rom: nil)).compile(pattern)
        XCTAssertEqual(amplitude(in: program, at: 0.1), 1, accuracy: 1e-9)
        XCTAssertEqual(amplitude(in: program, at: 0.3), 128.0 / 255, accuracy: 1e-9)
        XCTAssertEqual(amplitude(in: program, at: 0.55), 0.25, accuracy: 0.5 / 255 + 1e-9)
        XCTAssertEqual(amplitude(in: program, at: 0.9), 1, accuracy: 1e-9)
    }

    func testOverlappingEventsAddAndClamp() {
        let mixed = DriveLevel.mix([DriveLevel(intensity: 0.2, sharpness: 0), DriveLevel(intensity: 0.6, sharpness: 1)])
        XCTAssertEqual(mixed.intensity, 0.8, accuracy: 1e-12)
        XCTAssertEqual(mixed.sharpness, 0.75, accuracy: 1e-12)
        XCTAssertEqual(DriveLevel.mix([DriveLevel(intensity: 0.7, sharpness: 0.5), DriveLevel(intensity: 0.7, sharpness: 0.5)]).intensity, 1)
        XCTAssertEqual(DriveLevel.mix([]), .silent)

        let pattern = HapticPattern(events: [continuous(0, 0.4, intensity: 0.3), continuous(0.2, 0.4, intensity: 0.4), continuous(0.3, 0.1, intensity: 0.6)])
        let program = PatternCompiler(capabilities: capabilities(rom: nil)).compile(pattern)
        XCTAssertEqual(amplitude(in: program, at: 0.1), 77.0 / 255, accuracy: 1e-9) // 0.3
        XCTAssertEqual(amplitude(in: program, at: 0.25), 179.0 / 255, accuracy: 1e-9) // 0.3 + 0.4
        XCTAssertEqual(amplitude(in: program, at: 0.35), 1, accuracy: 1e-9) // 1.3 clamped
        XCTAssertEqual(amplitude(in: program, at: 0.5), 102.0 / 255, accuracy: 1e-9) // 0.4
    }

    func testSignedActuatorsBrakeAtTheEndOfAStream() {
        let program = PatternCompiler(capabilities: capabilities(rom: nil, signed: true)).compile(HapticPattern(events: [continuous(0, 0.1, intensity: 0.8)]))
        let samples = amplitudeCommands(program)
        XCTAssertEqual(samples.count, 3)
        XCTAssertEqual(samples[0].value, (0.8 * 127).rounded() / 127, accuracy: 1e-12)
        XCTAssertEqual(samples[1].time, 0.1, accuracy: 1e-12)
        XCTAssertEqual(samples[1].value, -(0.4 * 127).rounded() / 127, accuracy: 1e-12)
        XCTAssertEqual(samples[2].time, 0.101, accuracy: 1e-12)
        XCTAssertEqual(samples[2].value, 0)
        XCTAssertEqual(program.duration, 0.101, accuracy: 1e-12)
    }

    func testTransientsBecomePulsesWithoutAROMLibrary() {
        let pattern = HapticPattern(events: [transient(0.2, 1.0, 0), transient(0.5, 1.0, 1)])
        for rom in [nil, ROMLibrary.empty] {
            let program = PatternCompiler(capabilities: capabilities(rom: rom)).compile(pattern)
            let samples = amplitudeCommands(program)
            XCTAssertEqual(samples.count, 4)
            // Round tap: 80 % for 20 ms; sharp tap: 100 % for 10 ms (fixed-frequency mapping).
            XCTAssertEqual(samples[0].time, 0.2, accuracy: 1e-12)
            XCTAssertEqual(samples[0].value, 204.0 / 255, accuracy: 1e-12)
            XCTAssertEqual(samples[1].time, 0.22, accuracy: 1e-9)
            XCTAssertEqual(samples[1].value, 0)
            XCTAssertEqual(samples[2].value, 1)
            XCTAssertEqual(samples[3].time, 0.51, accuracy: 1e-9)
            XCTAssertFalse(program.commands.contains { if case .trigger = $0.command { true } else { false } })
        }
    }

    func testUpdateRateIsLoweredAt100kHzBusSpeed() {
        // At 100 kHz one RTP write is 29 SCL cycles = 290 µs; a quarter of the bus allows 862 Hz.
        let slow = PatternCompiler(capabilities: capabilities(rom: nil, busHz: 100_000))
        XCTAssertEqual(slow.updateRate, 0.25 / 0.00029, accuracy: 1e-6)
        let program = slow.compile(HapticPattern(events: [continuous(0, 0.5, attack: 0.5)]))
        XCTAssertEqual(program.updateRate, 862.068965, accuracy: 1e-5)
        XCTAssertTrue(program.warnings.contains { $0.message.contains("lowered from 1000 Hz to 862 Hz") })
        // Every sample but the closing zero (at the event end) lies on the 862 Hz grid.
        let times = amplitudeCommands(program).map(\.time).dropLast()
        XCTAssertGreaterThan(times.count, 200)
        for time in times {
            let k = time * program.updateRate
            XCTAssertEqual(k, k.rounded(), accuracy: 1e-6)
        }
        XCTAssertEqual(times.last ?? 0, 431 / program.updateRate, accuracy: 1e-9)
        // Updates then use at most a quarter of the bus.
        XCTAssertLessThanOrEqual(program.updateRate * 0.00029, 0.25 + 1e-12)

        let fast = PatternCompiler(capabilities: capabilities(rom: nil, busHz: 400_000)).compile(HapticPattern(events: [continuous(0, 0.1)]))
        XCTAssertEqual(fast.updateRate, 1000)
        XCTAssertTrue(fast.warnings.isEmpty)
    }

    // MARK: modes

    func testModeSwitchesArePlannedAheadOfEachModesFirstEvent() {
        let pattern = HapticPattern(events: [transient(0, 1.0, 0.6), continuous(0.5, 0.5, intensity: 0.5), transient(1.5, 0.6, 0.1)])
        let program = PatternCompiler(capabilities: capabilities(), options: CompilerOptions(modeSwitchCost: .milliseconds(5))).compile(pattern)
        let prepares = program.commands.compactMap { command -> (Double, DriveMode)? in
            if case .prepare(let mode) = command.command { return (command.time, mode) }
            return nil
        }
        XCTAssertEqual(prepares.map(\.1), [.romSequence, .realtimeAmplitude, .romSequence])
        XCTAssertEqual(prepares[0].0, -0.005, accuracy: 1e-12)
        XCTAssertEqual(prepares[1].0, 0.495, accuracy: 1e-12)
        XCTAssertEqual(prepares[2].0, 1.495, accuracy: 1e-12)
        // Every command after a prepare comes at least the switch cost later; nothing of the old
        // mode runs in the switch window.
        for (index, command) in program.commands.enumerated() {
            guard case .prepare = command.command, index + 1 < program.commands.count else { continue }
            XCTAssertGreaterThanOrEqual(program.commands[index + 1].time - command.time, 0.005 - 1e-12)
            if index > 0 { XCTAssertLessThanOrEqual(program.commands[index - 1].time, command.time) }
        }
        XCTAssertEqual(amplitude(in: program, at: 0.7), 128.0 / 255, accuracy: 1e-9)
        XCTAssertEqual(program.commands.last, TimedCommand(time: 1.56, command: .stop))
        XCTAssertTrue(program.warnings.isEmpty)
        assertSorted(program)
    }

    func testROMEffectsCollidingWithStreamingArePlayedAsAmplitudeWithAWarning() {
        // 0.7: inside the stream; 1.003: too soon after it to switch modes (5 ms).
        let pattern = HapticPattern(events: [continuous(0.5, 0.5, intensity: 0.5), transient(0.7, 0.5, 1), transient(1.003, 1.0, 1)])
        let program = PatternCompiler(capabilities: capabilities(), options: CompilerOptions(modeSwitchCost: .milliseconds(5))).compile(pattern)
        XCTAssertFalse(program.commands.contains { if case .trigger = $0.command { true } else { false } })
        XCTAssertEqual(program.warnings.filter { $0.message.contains("dropped while streaming") }.count, 2)
        XCTAssertEqual(amplitude(in: program, at: 0.69), 128.0 / 255, accuracy: 1e-9)
        XCTAssertEqual(amplitude(in: program, at: 0.705), 1, accuracy: 1e-9, "0.5 + 0.5 mixed")
        XCTAssertEqual(amplitude(in: program, at: 1.005), 1, accuracy: 1e-9)
        XCTAssertEqual(amplitude(in: program, at: 1.02), 0)
        XCTAssertEqual(program.commands.filter { $0.command == .prepare(.realtimeAmplitude) }.count, 1)
    }

    func testOpenLoopSharpnessSetsFrequency() {
        let pattern = HapticPattern(
            events: [continuous(0, 1, intensity: 0.6, sharpness: 0)],
            parameters: [DynamicParameter(.hapticSharpnessControl, value: 1, time: 0.5)]
        )
        let program = PatternCompiler(capabilities: capabilities(rom: nil, adjustable: true)).compile(pattern)
        let frequencies = program.commands.compactMap { command -> TimedCommand? in
            if case .frequency = command.command { return command } else { return nil }
        }
        XCTAssertEqual(frequencies, [TimedCommand(time: 0, command: .frequency(140)), TimedCommand(time: 0.5, command: .frequency(210))])
        XCTAssertEqual(amplitude(in: program, at: 0.2), 153.0 / 255, accuracy: 1e-9, "amplitude is the intensity")
        let wideBand = SharpnessMapping(capabilities: capabilities(kind: .voiceCoil, adjustable: true))
        XCTAssertEqual(wideBand.adjustableFrequency(for: 0) ?? 0, 80, accuracy: 1e-9)
        XCTAssertEqual(wideBand.adjustableFrequency(for: 0.5) ?? 0, 160, accuracy: 1e-9)
        XCTAssertEqual(wideBand.adjustableFrequency(for: 1) ?? 0, 320, accuracy: 1e-9)
        XCTAssertNil(SharpnessMapping(capabilities: capabilities()).adjustableFrequency(for: 0.5))
    }

    func testPCMIsASineAtTheResonanceTimesTheLevel() throws {
        let pattern = HapticPattern(events: [continuous(0.1, 0.05, intensity: 0.5)])
        let options = CompilerOptions(modeSwitchCost: .milliseconds(3), pcmSampleRate: 8000)
        let program = PatternCompiler(capabilities: capabilities(rom: nil, realtime: false, pcm: true, kind: .voiceCoil), options: options).compile(pattern)
        XCTAssertEqual(program.commands.first, TimedCommand(time: 0.097, command: .prepare(.pcm)))
        let blocks = program.commands.compactMap { command -> (Double, [Int16])? in
            if case .pcm(let samples) = command.command { return (command.time, samples) } else { return nil }
        }
        // Five blocks of drive, then one of silence behind it, so a shared device gets the last.
        XCTAssertEqual(blocks.count, 6)
        XCTAssertEqual(blocks.map(\.1.count), [80, 80, 80, 80, 80, 80])
        XCTAssertEqual(blocks[1].0, 0.11, accuracy: 1e-12)
        XCTAssertEqual(blocks[5].0, 0.15, accuracy: 1e-12)
        XCTAssertEqual(blocks[5].1, [Int16](repeating: 0, count: 80))
        let samples = blocks.flatMap(\.1)
        for n in [0, 3, 11, 150, 399] {
            let expected = 0.5 * sin(2 * Double.pi * 175 * Double(n) / 8000) * 32767
            XCTAssertEqual(Double(samples[n]), expected, accuracy: 1.5, "sample \(n)")
        }
        XCTAssertEqual(program.commands.last?.command, .stop)
        XCTAssertEqual(program.commands.last?.time ?? 0, 0.15, accuracy: 1e-12)
    }

    // MARK: notes and odd cases

    func testNoteCuesPlayTheirROMEffectsAndFallBackElsewhere() {
        let pattern = HapticPattern(notes: [.hapticFeedback(.notification(.success)), .waitUntilFinished, .hapticFeedback(.impact(.light))])
        let lra = PatternCompiler(capabilities: capabilities(rom: .lra)).compile(pattern)
        XCTAssertEqual(lra.commands.filter { if case .trigger = $0.command { true } else { false } }, [
            TimedCommand(time: 0, command: .trigger([.effect(2), .wait(.milliseconds(80)), .effect(1)])),
            TimedCommand(time: 0.2, command: .trigger([.effect(3)])),
        ])
        XCTAssertEqual(lra.duration, 0.3, accuracy: 1e-9)
        let erm = PatternCompiler(capabilities: capabilities(rom: .ermA, kind: .erm)).compile(pattern)
        XCTAssertTrue(erm.commands.contains(TimedCommand(time: 0.2, command: .trigger([.effect(8)]))))
        let plain = PatternCompiler(capabilities: capabilities(rom: nil)).compile(pattern)
        XCTAssertEqual(amplitude(in: plain, at: 0.005), (0.6 * (0.8 + 0.2 * 0.5) * 255).rounded() / 255, accuracy: 1e-9)
        XCTAssertEqual(amplitude(in: plain, at: 0.105), (1.0 * (0.8 + 0.2 * 0.7) * 255).rounded() / 255, accuracy: 1e-9)
    }

    func testACueOfContinuousEventsIsOneTriggerOnAROMChipAndAStreamWithoutOne() {
        let pattern = HapticPattern(notes: [.vibration(.alert)])
        let rom = PatternCompiler(capabilities: capabilities(rom: .lra)).compile(pattern)
        XCTAssertEqual(rom.commands.map(\.command), [.prepare(.romSequence), .trigger([.effect(47), .wait(.milliseconds(100)), .effect(47)]), .stop])
        XCTAssertEqual(rom.duration, 0.5, accuracy: 1e-9)
        let plain = PatternCompiler(capabilities: capabilities(rom: nil)).compile(pattern)
        XCTAssertEqual(plain.commands.filter { $0.command == .prepare(.realtimeAmplitude) }.count, 1)
        XCTAssertEqual(amplitude(in: plain, at: 0.1), (0.86 * 255).rounded() / 255, accuracy: 1e-9, "sharpness 0.3 on a fixed-frequency LRA")
        XCTAssertEqual(amplitude(in: plain, at: 0.25), 0)
        XCTAssertEqual(amplitude(in: plain, at: 0.4), (0.86 * 255).rounded() / 255, accuracy: 1e-9)
    }

    func testActuatorThatCanDoNothingWarnsAndAudioIsReported() {
        let pattern = HapticPattern(events: [transient(0, 1, 0.5), continuous(0, 1), HapticEvent(type: .audioContinuous, time: 0, duration: 1)])
        let program = PatternCompiler(capabilities: capabilities(rom: nil, realtime: false)).compile(pattern)
        XCTAssertTrue(program.commands.isEmpty)
        XCTAssertEqual(program.warnings.map(\.message), [
            "1 audio event(s) not played: actuators render haptic events only",
            "1 continuous event(s) and 1 transient(s) not played: the actuator cannot stream amplitude",
        ])
        XCTAssertEqual(program.duration, 1)
    }

    func testMaximumContinuousDriveIsWarned() {
        var caps = capabilities(rom: nil)
        caps.maximumContinuousDrive = .seconds(2)
        let program = PatternCompiler(capabilities: caps, options: CompilerOptions(updateRate: 100)).compile(HapticPattern(events: [continuous(1, 3)]))
        XCTAssertTrue(program.warnings.contains { $0.description == "warning: at 1 s: continuous drive of 3 s exceeds the actuator's 2 s limit (max-continuous-drive-ms); the engine stops it there" })
    }

    /// The warning measures drive as the engine's guard will, not the event: a 3 s event whose
    /// intensity touches 0 half-way drives twice for 1.5 s, which a 2 s limit lets play whole.
    func testContinuousDriveIsMeasuredOnTheDriveNotOnTheEvent() {
        var caps = capabilities(rom: nil)
        caps.maximumContinuousDrive = .seconds(2)
        var pattern = HapticPattern(events: [continuous(1, 3)])
        pattern.parameterCurves = [ParameterCurve(.hapticIntensityControl, time: 1, controlPoints: [
            ControlPoint(time: 0, value: 1), ControlPoint(time: 1.4, value: 1), ControlPoint(time: 1.5, value: 0), ControlPoint(time: 1.6, value: 1),
        ])]
        let program = PatternCompiler(capabilities: caps, options: CompilerOptions(updateRate: 100)).compile(pattern)
        XCTAssertTrue(program.commands.contains { $0.time == 2.5 && $0.command == .amplitude(0) }, "silent half-way")
        XCTAssertFalse(program.warnings.contains { $0.message.contains("continuous drive") }, "\(program.warnings)")
    }
}

final class CompilerRobustnessTests: XCTestCase {
    private let caps = ActuatorCapabilities(
        kind: .lra, romLibrary: .lra, supportsRealtimeAmplitude: true, supportsSignedAmplitude: false,
        supportsPCM: false, resonantFrequency: 175, frequencyAdjustable: false,
        amplitudeUpdateCost: .microseconds(73), maximumContinuousDrive: nil
    )

    func testBrokenTimesAreSkippedOrCutWithWarnings() {
        let pattern = HapticPattern(
            events: [
                HapticEvent(type: .hapticTransient, time: .nan),
                HapticEvent(type: .hapticContinuous, time: -1, duration: 1),
                HapticEvent(type: .hapticContinuous, time: 0, duration: .infinity),
                HapticEvent(type: .hapticContinuous, time: 0.5, duration: 1e12, parameters: [EventParameter(.hapticIntensity, .nan)]),
                HapticEvent(type: .hapticContinuous, time: 0, duration: 0.1),
            ],
            parameters: [DynamicParameter(.hapticIntensityControl, value: .nan, time: 0)],
            parameterCurves: [ParameterCurve(.hapticSharpnessControl, time: .infinity, controlPoints: [])]
        )
        let program = PatternCompiler(capabilities: caps, options: CompilerOptions(maximumDuration: 2)).compile(pattern)
        XCTAssertEqual(program.warnings.map(\.message), [
            "3 event(s) with a non-finite, negative or too late (≥ 2 s) time or duration skipped",
            "1 event(s) cut at the 2 s program limit",
            "2 dynamic parameter(s) or curve(s) with a non-finite or too late time skipped",
        ])
        XCTAssertEqual(program.duration, 2, accuracy: 1e-9)
        XCTAssertEqual(program.commands.last?.command, .stop)
        for command in program.commands {
            XCTAssertTrue(command.time.isFinite)
            if case .amplitude(let value) = command.command { XCTAssertTrue(value.isFinite) }
        }
    }

    func testStrayOptionsDoNotStallTheCompiler() {
        let pattern = HapticPattern(events: [HapticEvent(type: .hapticContinuous, time: 0, duration: 0.1)])
        for options in [CompilerOptions(updateRate: .infinity), CompilerOptions(updateRate: 0), CompilerOptions(maximumBusShare: 0)] {
            let program = PatternCompiler(capabilities: caps, options: options).compile(pattern)
            XCTAssertGreaterThanOrEqual(program.updateRate, 1)
            XCTAssertLessThanOrEqual(program.updateRate, 100_000)
            XCTAssertEqual(program.commands.last?.command, .stop)
        }
    }
}

final class ProgramListingTests: XCTestCase {
    func testProgramListsCommandsAndWarnings() {
        let program = ActuatorProgram(
            commands: [
                TimedCommand(time: -0.001, command: .prepare(.romSequence)),
                TimedCommand(time: 0, command: .trigger([.effect(2), .wait(.milliseconds(80)), .effect(1)])),
                TimedCommand(time: 0.25, command: .amplitude(128.0 / 255)),
                TimedCommand(time: 0.25, command: .frequency(140)),
                TimedCommand(time: 0.3, command: .pcm([1, 2, 3])),
                TimedCommand(time: 0.5, command: .stop),
            ],
            duration: 0.5, updateRate: 1000, pcmSampleRate: 48_000,
            warnings: [ProgramWarning(time: 0.25, message: "something")]
        )
        XCTAssertEqual(program.description, """
        program: 6 commands, 0.5 s, updates at 1000 Hz
        -0.001 s: prepare romSequence
        0 s: trigger 2, wait 0.08 s, 1
        0.25 s: amplitude 0.502
        0.25 s: frequency 140 Hz
        0.3 s: pcm 3 samples
        0.5 s: stop
        warning: at 0.25 s: something
        """)
        XCTAssertEqual(program.leadTime, 0.001, accuracy: 1e-12)
    }
}

final class DenseCompilerTests: XCTestCase {
    /// A 20 s rumble under 2,000 taps: every tap collides with the stream, so all become pulses;
    /// the compile must stay proportional to what sounds (this would take minutes if each sample
    /// scanned every tap).
    func testDensePatternCompilesWithEveryTapMixedIntoTheStream() {
        var events = [HapticEvent(type: .hapticContinuous, time: 0, duration: 20, parameters: [EventParameter(.hapticIntensity, 0.3)])]
        for k in 0..<2000 {
            events.append(HapticEvent(type: .hapticTransient, time: Double(k) * 0.01 + 0.005, parameters: [EventParameter(.hapticIntensity, 0.5)]))
        }
        let caps = ActuatorCapabilities(
            kind: .lra, romLibrary: .lra, supportsRealtimeAmplitude: true, supportsSignedAmplitude: false,
            supportsPCM: false, resonantFrequency: 175, frequencyAdjustable: false,
            amplitudeUpdateCost: .microseconds(73), maximumContinuousDrive: nil
        )
        let program = PatternCompiler(capabilities: caps).compile(HapticPattern(events: events))
        XCTAssertEqual(program.warnings.filter { $0.message.contains("dropped while streaming") }.count, 2000)
        XCTAssertFalse(program.commands.contains { if case .trigger = $0.command { true } else { false } })
        // Between taps (sharpness 0.5 → 15 ms pulses every 10 ms) the pulses overlap the rumble continuously.
        XCTAssertEqual(program.commands.filter { $0.command == .prepare(.realtimeAmplitude) }.count, 1)
    }
}
