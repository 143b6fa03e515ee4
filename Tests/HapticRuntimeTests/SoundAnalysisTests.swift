import ActuatorHAL
import ActuatorHALLinux
import Foundation
import XCTest
@testable import HapticRuntime

/// Haptics from sound, judged as a designer would judge them, on sounds the tests synthesise.
final class SoundAnalysisTests: XCTestCase {
    private func clip(_ samples: [Float], settings: SoundAnalysisSettings = SoundAnalysisSettings()) -> HapticClip {
        SoundAnalyzer.clip(for: MonoSound(sampleRate: SyntheticSound.rate, samples: samples), settings: settings, spectrum: linuxSpectrum)
    }

    /// Every clip the analysis makes reads back as a valid v1 clip, unchanged.
    private func assertValidV1(_ clip: HapticClip, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(try HapticClip.read(text: clip.text, file: "analysed.haptic").clip, clip, file: file, line: line)
    }

    func testAClickTrainGivesOneEmphasisPerClickWithinTenMillisecondsAndNoneBetween() {
        let clicks = [0.1, 0.35, 0.6, 0.85, 1.1, 1.35, 1.6, 1.85]
        let result = clip(SyntheticSound.clickTrain(at: clicks, seconds: 2.1))
        let emphasis = result.amplitude.filter { $0.emphasis != nil }.map(\.time)
        XCTAssertEqual(emphasis.count, clicks.count, "\(emphasis)")
        for (found, click) in zip(emphasis, clicks) {
            XCTAssertLessThanOrEqual(abs(found - click), 0.01, "emphasis at \(found) for the click at \(click)")
        }
        assertValidV1(result)
    }

    func testALoudStartDoesNotHideTheClicksOverACarryingTone() {
        // The tone starting from silence is by far the strongest onset; the clicks on top of it
        // are still one emphasis each.
        let clicks = [0.25, 0.5, 0.75, 1.0, 1.25]
        let tone = SyntheticSound.chirp(from: 60, to: 300, seconds: 1.5, level: 0.3)
        var samples = tone
        for click in clicks {
            // 1 ms of full-scale samples alternating in sign, decaying: a hard, bright tick.
            let start = Int(click * Double(SyntheticSound.rate))
            for index in 0..<48 { samples[start + index] += Float((index % 2 == 0 ? 0.8 : -0.8) * exp(-Double(index) / 24)) }
        }
        let emphasis = clip(samples).amplitude.filter { $0.emphasis != nil }.map(\.time).filter { $0 > 0.1 }
        XCTAssertEqual(emphasis.count, clicks.count, "\(emphasis)")
        for (found, click) in zip(emphasis, clicks) { XCTAssertEqual(found, click, accuracy: 0.01) }
    }

    func testAToneBurstsEnvelopeFollowsItsAttackAndDecayWithinFiveHundredths() {
        let shape = SyntheticSound.BurstShape()
        var settings = SoundAnalysisSettings()
        settings.emphasis = false
        let result = clip(SyntheticSound.toneBurst(shape, seconds: 1), settings: settings)
        var worst = (error: 0.0, time: 0.0)
        for step in 0...1000 {
            let time = Double(step) / 1000
            let error = abs(Self.value(of: result.amplitude.map { ($0.time, $0.amplitude) }, at: time) - shape.level(at: time))
            if error > worst.error { worst = (error, time) }
        }
        XCTAssertLessThanOrEqual(worst.error, 0.05, "worst at \(worst.time) s")
        assertValidV1(result)
        // With emphasis on, the burst's onset is its only emphasis.
        let emphasised = clip(SyntheticSound.toneBurst(shape, seconds: 1)).amplitude.filter { $0.emphasis != nil }
        XCTAssertLessThanOrEqual(emphasised.count, 1)
        for point in emphasised { XCTAssertEqual(point.time, shape.start + shape.attack, accuracy: 0.02) }
    }

    func testSilenceGivesAFlatZeroEnvelopeAndNoEmphasis() {
        let result = clip(SyntheticSound.silence(seconds: 1))
        XCTAssertTrue(result.amplitude.allSatisfy { $0.amplitude == 0 && $0.emphasis == nil }, "\(result.amplitude)")
        XCTAssertEqual(result.duration, 1, accuracy: 1e-6)
        XCTAssertEqual(Set(result.frequency?.map(\.frequency) ?? [1]).count, 1, "flat")
        assertValidV1(result)
    }

    func testARisingChirpGivesARisingFrequencyEnvelope() throws {
        let result = clip(SyntheticSound.chirp(from: 40, to: 560, seconds: 2))
        let frequency = try XCTUnwrap(result.frequency).map { ($0.time, $0.frequency) }
        let quarters = [0.25, 0.75, 1.25, 1.75].map { Self.value(of: frequency, at: $0) }
        XCTAssertEqual(quarters, quarters.sorted(), "\(quarters)")
        XCTAssertGreaterThan(quarters[3] - quarters[0], 0.5, "\(quarters)")
        // Rising throughout: no step back by more than a little.
        let samples = stride(from: 0.1, through: 1.9, by: 0.05).map { Self.value(of: frequency, at: $0) }
        for (earlier, later) in zip(samples, samples.dropFirst()) { XCTAssertGreaterThan(later, earlier - 0.03) }
        assertValidV1(result)
    }

    func testAClickInOneChannelOfAStereoFileIsFound() throws {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("right.wav")
        let click = SyntheticSound.clickTrain(at: [0.3], seconds: 0.8)
        try SoundFileEncoder.write(samples: SyntheticSound.interleaved(click, channels: 2, into: 1), channels: 2, sampleRate: SyntheticSound.rate, container: .wav, to: url)
        let content = try SoundHaptics.load(contentsOf: url, reading: .linux())
        let emphasis = try XCTUnwrap(content.clip).amplitude.filter { $0.emphasis != nil }
        XCTAssertEqual(emphasis.count, 1)
        XCTAssertEqual(emphasis.first?.time ?? 0, 0.3, accuracy: 0.01)
        // The pattern plays the haptics and the sound itself, beside the file.
        XCTAssertEqual(content.pattern.events.first?.type, .audioCustom)
        XCTAssertEqual(content.pattern.events.first?.waveformPath, "right.wav")
    }

    func testEveryFormatRateAndChannelCountIsRead() throws {
        let folder = try TemporaryFolder()
        let clicks = [0.2, 0.6]
        for (container, rate, channels) in [(SoundFileEncoder.Container.flac, 44_100, 1), (.oggVorbis, 22_050, 2), (.aiff, 96_000, 4), (.wav, 384_000, 8)] {
            let mono = (0..<Int(0.9 * Double(rate))).map { index -> Float in
                let time = Double(index) / Double(rate)
                return clicks.contains { time >= $0 && time < $0 + 0.001 } ? (index % 2 == 0 ? 0.9 : -0.9) : 0
            }
            let url = folder.url.appendingPathComponent("clicks-\(rate).\(container.fileExtension)")
            try SoundFileEncoder.write(samples: SyntheticSound.interleaved(mono, channels: channels, into: channels - 1), channels: channels, sampleRate: rate, container: container, to: url)
            let content = try SoundHaptics.load(contentsOf: url, reading: .linux())
            let emphasis = try XCTUnwrap(content.clip).amplitude.filter { $0.emphasis != nil }.map(\.time)
            XCTAssertEqual(emphasis.count, 2, "\(container) at \(rate) Hz × \(channels): \(emphasis)")
            for (found, click) in zip(emphasis, clicks) { XCTAssertEqual(found, click, accuracy: 0.01, "\(container)") }
            XCTAssertEqual(content.clip?.duration ?? 0, 0.9, accuracy: 0.01, "\(container)")
        }
    }

    // MARK: Bad input

    func testZeroLengthAudioIsAClearError() throws {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("empty.wav")
        try SoundFileEncoder.write(samples: [], channels: 1, sampleRate: 48_000, container: .wav, to: url)
        XCTAssertThrowsError(try SoundHaptics.load(contentsOf: url, reading: .linux())) { error in
            XCTAssertEqual("\(error)", "\(url.relativePath): error while decoding: the file holds no audio (zero frames)")
        }
    }

    func testATruncatedFileGivesTheHapticsOfWhatItHolds() throws {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("cut.wav")
        try SoundFileEncoder.write(samples: SyntheticSound.clickTrain(at: [0.1, 0.6], seconds: 1), channels: 1, sampleRate: 48_000, container: .wav, to: url)
        let data = try Data(contentsOf: url)
        try data.prefix(44 + 48_000).write(to: url) // half a second of 16-bit samples
        let clip = try XCTUnwrap(try SoundHaptics.load(contentsOf: url, reading: .linux()).clip)
        XCTAssertEqual(clip.duration, 0.5, accuracy: 0.001)
        XCTAssertEqual(clip.amplitude.filter { $0.emphasis != nil }.count, 1)
    }

    func testAHeaderThatClaimsMoreThanTheFileHoldsGivesWhatTheFileHolds() throws {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("liar.wav")
        try SoundFileEncoder.write(samples: SyntheticSound.clickTrain(at: [0.1], seconds: 0.5), channels: 1, sampleRate: 48_000, container: .wav, to: url)
        var bytes = [UInt8](try Data(contentsOf: url))
        // The RIFF size and the data chunk's size both claim about 4 GB.
        for offset in [4, 40] { bytes.replaceSubrange(offset..<(offset + 4), with: [0xF0, 0xFF, 0xFF, 0xFF]) }
        try Data(bytes).write(to: url)
        let clip = try XCTUnwrap(try SoundHaptics.load(contentsOf: url, reading: .linux()).clip)
        XCTAssertEqual(clip.duration, 0.5, accuracy: 0.001)
        XCTAssertEqual(clip.amplitude.filter { $0.emphasis != nil }.count, 1)
    }

    func testAnUnsupportedCodecOrNonSoundIsAClearError() throws {
        let folder = try TemporaryFolder()
        let text = try folder.write("this is not a sound", to: "notes.wav")
        XCTAssertThrowsError(try SoundHaptics.load(contentsOf: text, reading: .linux())) { error in
            XCTAssertTrue("\(error)".hasPrefix("\(text.relativePath): cannot read sound file: "), "\(error)")
        }
        // A RIFF/WAVE header naming a codec libsndfile does not decode (format tag 0x1234).
        var header = [UInt8]("RIFF".utf8) + [36, 0, 0, 0] + [UInt8]("WAVEfmt ".utf8) + [16, 0, 0, 0]
        header += [0x34, 0x12, 1, 0, 0x80, 0xBB, 0, 0, 0, 0x77, 1, 0, 2, 0, 16, 0] + [UInt8]("data".utf8) + [0, 0, 0, 0]
        let codec = folder.url.appendingPathComponent("codec.wav")
        try Data(header).write(to: codec)
        XCTAssertThrowsError(try SoundHaptics.load(contentsOf: codec, reading: .linux())) { error in
            XCTAssertTrue("\(error)".hasPrefix("\(codec.relativePath): "), "\(error)")
        }
    }

    func testASoundLongerThanTheLimitIsRefusedWithoutDecodingItAll() throws {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("long.wav")
        try SoundFileEncoder.write(samples: SyntheticSound.silence(seconds: 2), channels: 1, sampleRate: 48_000, container: .wav, to: url)
        XCTAssertThrowsError(try SoundFileDecoder().decodeMono(path: url.path, maximumDuration: 1)) { error in
            XCTAssertEqual("\(error)", "\(url.path): the sound lasts longer than the 1 s this reads")
        }
    }

    func testSettingsAndPresetsAreChecked() throws {
        var settings = SoundAnalysisSettings()
        XCTAssertThrowsError(try settings.set("fft-size", to: 1023)) { XCTAssertEqual("\($0)", "fft-size 1023.0: expected a whole number that is even") }
        XCTAssertThrowsError(try settings.set("releas-ms", to: 5)) { XCTAssertTrue("\($0)".hasPrefix("unknown analysis setting 'releas-ms' (did you mean 'release-ms'?)"), "\($0)") }
        XCTAssertThrowsError(try settings.set("sensitivity-percent", to: 120)) { XCTAssertEqual("\($0)", "sensitivity-percent 120.0: expected 0.0…100.0") }
        let preset = """
        {
          "release-ms": 60,
          "normalize": true,
          "atack-ms": 1
        }
        """
        XCTAssertThrowsError(try settings.applying(preset: preset, file: "p.json")) { error in
            XCTAssertTrue("\(error)".hasPrefix("p.json:4:3: unknown analysis setting 'atack-ms' (did you mean 'attack-ms'?)"), "\(error)")
        }
        let good = try settings.applying(preset: #"{ "release-ms": 60, "normalize": true, "emphasis": false }"#, file: "p.json")
        XCTAssertEqual(good.releaseMs, 60)
        XCTAssertTrue(good.normalize)
        XCTAssertFalse(good.emphasis)
        XCTAssertEqual(try SoundAnalysisSettings().applying(preset: good.presetText, file: "again.json"), good)
        XCTAssertThrowsError(try settings.applying(preset: #"{ "release-ms": "60" }"#, file: "p.json")) { error in
            XCTAssertEqual("\(error)", "p.json:1:17: release-ms: expected a number or a boolean, found a string")
        }
        XCTAssertThrowsError(try settings.applying(preset: #"{ "release-ms": 60, "release-ms": 6 }"#, file: "p.json")) { error in
            XCTAssertEqual("\(error)", "p.json:1:21: release-ms: given more than once (first at line 1, column 3): give each key once, so that no reader has to guess which value counts")
        }
    }

    /// A linear envelope through `points`, read at `time`.
    static func value(of points: [(Double, Double)], at time: Double) -> Double {
        guard let next = points.firstIndex(where: { $0.0 > time }) else { return points.last?.1 ?? 0 }
        guard next > 0 else { return points[0].1 }
        let (a, b) = (points[next - 1], points[next])
        return a.1 + (b.1 - a.1) * (time - a.0) / (b.0 - a.0)
    }
}
