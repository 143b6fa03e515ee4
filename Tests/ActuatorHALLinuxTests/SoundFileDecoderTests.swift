import ActuatorHAL
import ActuatorHALLinux
import Foundation
import HardwareMocks
import XCTest

final class SoundFileDecoderTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("hapticboard-sound-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func sine(_ frequency: Double, rate: Int, frames: Int, amplitude: Double = 0.5) -> [Int16] {
        (0..<frames).map { Int16((amplitude * sin(2 * Double.pi * frequency * Double($0) / Double(rate)) * 32767).rounded()) }
    }

    func testAGeneratedStereoWAVDecodesToItsSamples() throws {
        let left = sine(440, rate: 44_100, frames: 441)
        let right = left.map { $0 / -2 }
        let interleaved = zip(left, right).flatMap { [$0, $1] }
        let url = folder.appendingPathComponent("tone.wav")
        try WAVFile.write(samples: interleaved, channels: 2, sampleRate: 44_100, to: url)

        let sound = try SoundFileDecoder().decode(path: url.path)
        XCTAssertEqual(sound.sampleRate, 44_100)
        XCTAssertEqual(sound.channels, 2)
        XCTAssertEqual(sound.frameCount, 441)
        // libsndfile scales 16-bit PCM by 1/32768.
        for frame in [0, 1, 100, 440] {
            XCTAssertEqual(Double(sound.channel(0)[frame]), Double(left[frame]) / 32768, accuracy: 1e-6)
            XCTAssertEqual(Double(sound.channel(1)[frame]), Double(right[frame]) / 32768, accuracy: 1e-6)
        }
    }

    /// `samples` as libsndfile reads 16-bit PCM back: k / 32768.
    private func floats(_ samples: [Int16]) -> [Float] {
        samples.map { Float($0) / 32768 }
    }

    /// Decodes the 1 kHz, 100 ms, 44.1 kHz tone at `url` at 48 kHz and checks its pitch, length and level.
    private func assertResamplingKeepsPitchAndLength(of url: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        let sound = try SoundFileDecoder().decode(path: url.path, sampleRate: 48_000)
        XCTAssertEqual(sound.sampleRate, 48_000, file: file, line: line)
        XCTAssertEqual(Double(sound.frameCount), 4800, accuracy: 2, file: file, line: line)
        // Skip the converter's edges, where its filter meets the start and end of the file.
        let middle = Array(sound.channel(0)[200..<4600]).map(Double.init)
        let frequency = try XCTUnwrap(SignalMeasurement.zeroCrossingFrequency(of: middle, sampleRate: 48_000), file: file, line: line)
        XCTAssertEqual(frequency, 1000, accuracy: 0.5, file: file, line: line)
        XCTAssertEqual(SignalMeasurement.peak(of: middle, in: 0..<middle.count), 0.5, accuracy: 0.01, file: file, line: line)
    }

    func testResamplingKeepsPitchAndLength() throws {
        let url = folder.appendingPathComponent("a.wav")
        try WAVFile.write(samples: sine(1000, rate: 44_100, frames: 44_100 / 10), channels: 1, sampleRate: 44_100, to: url)
        try assertResamplingKeepsPitchAndLength(of: url)
    }

    func testResamplingAFLACKeepsPitchAndLength() throws {
        let url = folder.appendingPathComponent("a.flac")
        try SoundFileEncoder.write(samples: floats(sine(1000, rate: 44_100, frames: 44_100 / 10)), channels: 1, sampleRate: 44_100, container: .flac, to: url)
        try assertResamplingKeepsPitchAndLength(of: url)
    }

    /// Writes `samples` as `name` in `container`, decodes it and checks its rate, channels and length.
    private func roundTrip(_ samples: [Float], channels: Int, rate: Int, container: SoundFileEncoder.Container, name: String, file: StaticString = #filePath, line: UInt = #line) throws -> DecodedSound {
        let url = folder.appendingPathComponent(name)
        try SoundFileEncoder.write(samples: samples, channels: channels, sampleRate: rate, container: container, to: url)
        let sound = try SoundFileDecoder().decode(path: url.path)
        XCTAssertEqual(sound.sampleRate, rate, file: file, line: line)
        XCTAssertEqual(sound.channels, channels, file: file, line: line)
        XCTAssertEqual(sound.frameCount, samples.count / channels, file: file, line: line)
        return sound
    }

    func testFLACDecodesToExactlyTheSamplesWritten() throws {
        // 5000 frames: one whole 4096-frame FLAC block and a partial one.
        let mono = floats(sine(440, rate: 44_100, frames: 5000, amplitude: 0.9))
        let monoSound = try roundTrip(mono, channels: 1, rate: 44_100, container: .flac, name: "mono.flac")
        XCTAssertEqual(monoSound.samples, mono, "lossless: every sample back exactly")

        let left = sine(1000, rate: 48_000, frames: 4801, amplitude: 0.5)
        let right = sine(250, rate: 48_000, frames: 4801, amplitude: -1)
        let stereoSound = try roundTrip(floats(zip(left, right).flatMap { [$0, $1] }), channels: 2, rate: 48_000, container: .flac, name: "stereo.flac")
        XCTAssertEqual(stereoSound.channel(0), floats(left))
        XCTAssertEqual(stereoSound.channel(1), floats(right))
    }

    func testOggVorbisKeepsLengthPitchAndLevel() throws {
        let tone = (0..<48_000).map { Float(0.5 * sin(2 * Double.pi * 440 * Double($0) / 48_000)) }
        // The last page's granule position holds the true length, so Vorbis's block padding is
        // trimmed and the frame count comes back exact.
        let sound = try roundTrip(tone, channels: 1, rate: 48_000, container: .oggVorbis, name: "tone.ogg")
        let decoded = sound.channel(0).map(Double.init)
        let middle = Array(decoded[2400..<45_600])
        XCTAssertEqual(try XCTUnwrap(SignalMeasurement.zeroCrossingFrequency(of: middle, sampleRate: 48_000)), 440, accuracy: 0.5)
        XCTAssertEqual(SignalMeasurement.peak(of: middle, in: 0..<middle.count), 0.5, accuracy: 0.025)
        // Lossy but in step: the decoder skips the codec's start-up delay, so no sample is far from its original.
        XCTAssertLessThan(zip(decoded, tone).map { abs($0 - Double($1)) }.max() ?? 1, 0.03)
    }

    func testAFLACCutMidStreamFailsNamingThePath() throws {
        let url = folder.appendingPathComponent("cut.flac")
        try SoundFileEncoder.write(samples: floats(sine(440, rate: 48_000, frames: 48_000)), channels: 1, sampleRate: 48_000, container: .flac, to: url)
        let whole = try Data(contentsOf: url)
        try whole.prefix(whole.count / 2).write(to: url)
        // libsndfile opens the file (its header is intact) and then reports the lost frame sync as an
        // error rather than a short read, so the decoder throws instead of keeping the frames before the cut.
        XCTAssertThrowsError(try SoundFileDecoder().decode(path: url.path)) { error in
            guard case .decoding(let path, let reason)? = error as? SoundFileError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, url.path)
            XCTAssertTrue(reason.contains("lost sync"), reason)
        }
    }

    func testSameRateIsReturnedUnchanged() throws {
        let sound = DecodedSound(sampleRate: 8000, channels: 1, samples: [0.25, -0.5])
        XCTAssertEqual(try SampleRateConverter.convert(sound, to: 8000), sound)
        XCTAssertThrowsError(try SampleRateConverter.convert(sound, to: 0)) { error in
            XCTAssertEqual(error as? SoundFileError, .resampling(from: 8000, to: 0, reason: "sample rates and channel count must be positive"))
        }
    }

    func testARatioLibsamplerateRefusesIsRefusedBeforeAnyWork() throws {
        // 100 frames at 100 Hz would be 48,000 frames at 48 kHz (480×); a file's header can claim any rate.
        let slow = DecodedSound(sampleRate: 100, channels: 2, samples: [Float](repeating: 0.25, count: 200))
        XCTAssertThrowsError(try SampleRateConverter.convert(slow, to: 48_000)) { error in
            XCTAssertEqual(error as? SoundFileError, .resampling(from: 100, to: 48_000, reason: "libsamplerate converts by at most 256× either way, not 480×"))
        }
        let fast = DecodedSound(sampleRate: 384_000, channels: 1, samples: [0.5, 0.25])
        XCTAssertThrowsError(try SampleRateConverter.convert(fast, to: 1_000)) { error in
            XCTAssertEqual(error as? SoundFileError, .resampling(from: 384_000, to: 1_000, reason: "libsamplerate converts by at most 256× either way, not 1/384×"))
        }
        // At the limit it converts: 256 frames out of one second at 1/256 of the rate.
        let edge = DecodedSound(sampleRate: 188, channels: 1, samples: [Float](repeating: 0, count: 188))
        XCTAssertEqual(try SampleRateConverter.convert(edge, to: 48_128).frameCount, 48_128, accuracy: 1)
    }

    func testMissingAndNonAudioFilesNameThePath() throws {
        let missing = folder.appendingPathComponent("missing.wav").path
        XCTAssertThrowsError(try SoundFileDecoder().decode(path: missing)) { error in
            guard case .unreadable(let path, _)? = error as? SoundFileError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, missing)
        }
        let text = folder.appendingPathComponent("notes.wav")
        try Data("not a sound".utf8).write(to: text)
        XCTAssertThrowsError(try SoundFileDecoder().decode(path: text.path)) { error in
            XCTAssertTrue("\(error)".hasPrefix("\(text.path): cannot read sound file:"), "\(error)")
        }
    }
}
