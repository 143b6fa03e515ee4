import ActuatorHAL
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

    func testResamplingKeepsPitchAndLength() throws {
        let url = folder.appendingPathComponent("a.wav")
        try WAVFile.write(samples: sine(1000, rate: 44_100, frames: 44_100 / 10), channels: 1, sampleRate: 44_100, to: url)

        let sound = try SoundFileDecoder().decode(path: url.path, sampleRate: 48_000)
        XCTAssertEqual(sound.sampleRate, 48_000)
        XCTAssertEqual(Double(sound.frameCount), 4800, accuracy: 2)
        // Skip the converter's edges, where its filter meets the start and end of the file.
        let middle = Array(sound.channel(0)[200..<4600]).map(Double.init)
        let frequency = try XCTUnwrap(SignalMeasurement.zeroCrossingFrequency(of: middle, sampleRate: 48_000))
        XCTAssertEqual(frequency, 1000, accuracy: 0.5)
        XCTAssertEqual(SignalMeasurement.peak(of: middle, in: 0..<middle.count), 0.5, accuracy: 0.01)
    }

    func testSameRateIsReturnedUnchanged() throws {
        let sound = DecodedSound(sampleRate: 8000, channels: 1, samples: [0.25, -0.5])
        XCTAssertEqual(try SampleRateConverter.convert(sound, to: 8000), sound)
        XCTAssertThrowsError(try SampleRateConverter.convert(sound, to: 0)) { error in
            XCTAssertEqual(error as? SoundFileError, .resampling(from: 8000, to: 0, reason: "sample rates and channel count must be positive"))
        }
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
