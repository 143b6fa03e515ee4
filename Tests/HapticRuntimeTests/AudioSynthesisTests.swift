import ActuatorHAL
import ActuatorHALLinux
import Foundation
import HardwareMocks
import XCTest
@testable import HapticRuntime

/// Decodes from a table of sounds, standing in for libsndfile where the file content is not the point.
struct TableDecoder: SoundDecoder {
    var sounds: [String: DecodedSound]

    func decode(contentsOf url: URL, sampleRate: Int) throws(SoundFileError) -> DecodedSound {
        guard let sound = sounds[url.lastPathComponent] else { throw .unreadable(path: url.path, reason: "not in the table") }
        return try SampleRateConverter.convert(sound, to: sampleRate)
    }

    func decodeMono(contentsOf url: URL, maximumDuration: Double) throws(SoundFileError) -> MonoSound {
        guard let sound = sounds[url.lastPathComponent] else { throw .unreadable(path: url.path, reason: "not in the table") }
        let mono = (0..<sound.frameCount).map { frame in
            (0..<sound.channels).map { sound.samples[frame * sound.channels + $0] }.reduce(0, +) / Float(max(1, sound.channels))
        }
        return MonoSound(sampleRate: sound.sampleRate, sourceChannels: sound.channels, samples: mono)
    }
}

final class AudioSynthesisTests: XCTestCase {
    private let rate = 48_000

    private func tone(
        duration: Double, volume: Double = 1, pitch: Double = 0, pan: Double = 0, brightness: Double = 0,
        attack: Double = 0, decay: Double = 0, release: Double = 0, sustained: Bool = true
    ) -> HapticEvent {
        HapticEvent(type: .audioContinuous, time: 0, duration: duration, parameters: [
            EventParameter(.audioVolume, volume), EventParameter(.audioPitch, pitch), EventParameter(.audioPan, pan),
            EventParameter(.audioBrightness, brightness), EventParameter(.attackTime, attack), EventParameter(.decayTime, decay),
            EventParameter(.releaseTime, release), EventParameter(.sustained, sustained ? 1 : 0),
        ])
    }

    private func render(_ pattern: HapticPattern, channels: Int = 1, folder: URL = FileManager.default.temporaryDirectory, decoder: any SoundDecoder = TableDecoder(sounds: [:])) throws -> [TimedVoice] {
        try AudioPatternRenderer(sampleRate: rate, channels: channels).voices(for: pattern, sounds: SoundLibrary(decoder: decoder, sampleRate: rate, folder: folder))
    }

    private func signal(_ voice: AudioVoice, channel: Int = 0) -> [Double] {
        stride(from: channel, to: voice.samples.count, by: voice.channels).map { Double(voice.samples[$0]) }
    }

    func testPitchSetsTheFrequencyAnOctaveEitherSideOfA4() throws {
        for (pitch, expected) in [(0.0, 440.0), (1, 880), (-1, 220), (0.5, 440 * pow(2, 0.5))] {
            let voice = try XCTUnwrap(render(HapticPattern(events: [tone(duration: 0.2, pitch: pitch)])).first).voice
            let frequency = try XCTUnwrap(SignalMeasurement.zeroCrossingFrequency(of: signal(voice), sampleRate: rate))
            XCTAssertEqual(frequency, expected, accuracy: 0.2, "pitch \(pitch)")
        }
    }

    func testThePitchControlMovesAPlayingTone() throws {
        let pattern = HapticPattern(events: [tone(duration: 0.4)], parameters: [DynamicParameter(.audioPitchControl, value: -1, time: 0.2)])
        let samples = signal(try XCTUnwrap(render(pattern).first).voice)
        XCTAssertEqual(try XCTUnwrap(SignalMeasurement.zeroCrossingFrequency(of: Array(samples[0..<9000]), sampleRate: rate)), 440, accuracy: 0.5)
        XCTAssertEqual(try XCTUnwrap(SignalMeasurement.zeroCrossingFrequency(of: Array(samples[10_000...]), sampleRate: rate)), 220, accuracy: 0.5)
    }

    func testBrightnessAddsHarmonicsWithoutRaisingThePeak() throws {
        let dark = signal(try XCTUnwrap(render(HapticPattern(events: [tone(duration: 0.1, brightness: 0)])).first).voice)
        let bright = signal(try XCTUnwrap(render(HapticPattern(events: [tone(duration: 0.1, brightness: 1)])).first).voice)
        let sine = (0..<dark.count).map { sin(2 * Double.pi * 440 * Double($0) / Double(rate)) }
        // The last control interval (32 frames) fades to the end instead of cutting off.
        XCTAssertLessThan(zip(dark.dropLast(32), sine).map { abs($0 - $1) }.max() ?? 1, 1e-3, "brightness 0 is a pure sine")
        XCTAssertLessThan(abs(dark[dark.count - 1]), 0.05, "fading out at the end")
        XCTAssertGreaterThan(zip(bright, sine).map { abs($0 - $1) }.max() ?? 0, 0.1, "brightness 1 is not")
        XCTAssertLessThanOrEqual(SignalMeasurement.peak(of: bright, in: 0..<bright.count), 1)
        XCTAssertEqual(try XCTUnwrap(SignalMeasurement.zeroCrossingFrequency(of: bright, sampleRate: rate)), 440, accuracy: 0.5)
    }

    func testAttackReleaseAndDecayEnvelopes() throws {
        let sustained = signal(try XCTUnwrap(render(HapticPattern(events: [tone(duration: 0.5, attack: 0.1, release: 0.1)])).first).voice)
        let envelope = EventEnvelope(attack: 0.1, decay: 0, release: 0.1, sustained: true, duration: 0.5)
        // Peak over 5 ms windows (two cycles at 440 Hz) follows the envelope at the window's loudest end.
        for start in stride(from: 0.0, to: 0.495, by: 0.025) {
            let range = Int(start * Double(rate))..<Int((start + 0.005) * Double(rate))
            let expected = max(envelope.gain(at: start), envelope.gain(at: start + 0.005))
            XCTAssertEqual(SignalMeasurement.peak(of: sustained, in: range), expected, accuracy: 0.03, "window at \(start) s")
        }
        let unsustained = signal(try XCTUnwrap(render(HapticPattern(events: [tone(duration: 0.5, decay: 0.2, sustained: false)])).first).voice)
        XCTAssertEqual(SignalMeasurement.peak(of: unsustained, in: 4800..<5040), 0.5, accuracy: 0.03, "halfway through the decay")
        XCTAssertEqual(SignalMeasurement.peak(of: unsustained, in: 9700..<24_000), 0, accuracy: 1e-9, "silent once decayed")
    }

    func testPanIsConstantPowerOnTheFirstTwoChannels() throws {
        for (pan, left, right) in [(-1.0, 1.0, 0.0), (0, 0.5.squareRoot(), 0.5.squareRoot()), (1, 0, 1)] {
            let voice = try XCTUnwrap(render(HapticPattern(events: [tone(duration: 0.05, pan: pan)]), channels: 4).first).voice
            XCTAssertEqual(SignalMeasurement.peak(of: signal(voice, channel: 0), in: 0..<2400), left, accuracy: 1e-3)
            XCTAssertEqual(SignalMeasurement.peak(of: signal(voice, channel: 1), in: 0..<2400), right, accuracy: 1e-3)
            XCTAssertEqual(SignalMeasurement.peak(of: signal(voice, channel: 2), in: 0..<2400), 0)
        }
    }

    func testAVolumeCurveFadesTheTone() throws {
        let pattern = HapticPattern(events: [tone(duration: 0.2)], parameterCurves: [
            ParameterCurve(.audioVolumeControl, time: 0, controlPoints: [ControlPoint(time: 0, value: 1), ControlPoint(time: 0.2, value: 0)]),
        ])
        let samples = signal(try XCTUnwrap(render(pattern).first).voice)
        XCTAssertEqual(SignalMeasurement.peak(of: samples, in: 4800..<4920), 0.5, accuracy: 0.02)
        XCTAssertEqual(SignalMeasurement.peak(of: samples, in: 9000..<9120), 0.0625, accuracy: 0.02)
    }

    func testAudioCustomPlaysAGeneratedWAVDecodedByLibsndfile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hapticboard-custom-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file: [Int16] = (0..<480).map { Int16($0 * 50) }
        try WAVFile.write(samples: file, channels: 1, sampleRate: rate, to: folder.appendingPathComponent("click.wav"))
        let event = HapticEvent(type: .audioCustom, time: 0.3, parameters: [EventParameter(.audioVolume, 0.5)], waveformPath: "click.wav")

        let voices = try render(HapticPattern(events: [event]), folder: folder, decoder: SoundFileDecoder())
        let voice = try XCTUnwrap(voices.first)
        XCTAssertEqual(voice.time, 0.3)
        XCTAssertEqual(voice.voice.key, "click.wav")
        XCTAssertEqual(voice.voice.frameCount, 480)
        for frame in [0, 1, 200, 479] {
            XCTAssertEqual(Double(voice.voice.samples[frame]), 0.5 * Double(file[frame]) / 32768, accuracy: 1e-6)
        }

        let escaping = HapticEvent(type: .audioCustom, time: 0, waveformPath: "../click.wav")
        XCTAssertThrowsError(try render(HapticPattern(events: [escaping]), folder: folder, decoder: SoundFileDecoder())) { error in
            XCTAssertEqual(error as? AudioContentError, .waveformPath(path: "../click.wav", problem: .leavesFolder))
        }
    }

    func testALoopedWaveformFillsItsDurationAndAnUnloopedOneStopsAtItsEnd() throws {
        let short = DecodedSound(sampleRate: rate, channels: 1, samples: [0.5, -0.5, 0.25])
        let decoder = TableDecoder(sounds: ["short.wav": short])
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hapticboard-loop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data().write(to: folder.appendingPathComponent("short.wav"))
        let looped = HapticEvent(type: .audioCustom, time: 0, duration: 7.0 / Double(rate), waveformPath: "short.wav", waveformLoopEnabled: true)
        let once = HapticEvent(type: .audioCustom, time: 0, duration: 1, waveformPath: "short.wav")
        let voices = try render(HapticPattern(events: [looped, once]), folder: folder, decoder: decoder)
        XCTAssertEqual(voices[0].voice.samples, [0.5, -0.5, 0.25, 0.5, -0.5, 0.25, 0.5])
        XCTAssertEqual(voices[1].voice.samples, [0.5, -0.5, 0.25])
    }

    func testAWaveformCanFollowTheEventEnvelope() throws {
        let flat = DecodedSound(sampleRate: rate, channels: 1, samples: [Float](repeating: 0.5, count: rate / 5))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hapticboard-envelope-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data().write(to: folder.appendingPathComponent("flat.wav"))
        let event = HapticEvent(type: .audioCustom, time: 0, parameters: [EventParameter(.attackTime, 0.1)], waveformPath: "flat.wav", waveformUsesVolumeEnvelope: true)
        let samples = signal(try XCTUnwrap(render(HapticPattern(events: [event]), folder: folder, decoder: TableDecoder(sounds: ["flat.wav": flat])).first).voice)
        XCTAssertEqual(samples.count, rate / 5, "the file's length")
        XCTAssertEqual(samples[0], 0)
        XCTAssertEqual(samples[rate / 20], 0.25, accuracy: 1e-3, "halfway up the 100 ms attack")
        XCTAssertEqual(samples[rate / 8], 0.5, accuracy: 1e-3, "full after it")
    }

    func testToneSamplesMatchTheDocumentedHarmonicSum() {
        let weights = AudioToneMapping.harmonicWeights(brightness: 0.8)
        XCTAssertEqual(weights[0], 1)
        XCTAssertEqual(weights[2], 0.64 / 3, accuracy: 1e-12)
        for phase in stride(from: 0.0, to: 2 * Double.pi, by: 0.37) {
            let direct = zip(weights.indices, weights).reduce(0.0) { $0 + $1.1 * sin(Double($1.0 + 1) * phase) } / weights.reduce(0, +)
            XCTAssertEqual(AudioToneMapping.sample(phase: phase, weights: weights, frequency: 440, nyquist: 24_000), direct, accuracy: 1e-12)
        }
        // At 4 kHz only harmonics 1-5 stay below a 24 kHz Nyquist frequency.
        let kept = Array(weights.prefix(5))
        let phase = 1.1
        let direct = zip(kept.indices, kept).reduce(0.0) { $0 + $1.1 * sin(Double($1.0 + 1) * phase) } / kept.reduce(0, +)
        XCTAssertEqual(AudioToneMapping.sample(phase: phase, weights: weights, frequency: 4000, nyquist: 24_000), direct, accuracy: 1e-12)
    }
}
