import ActuatorHAL
import ActuatorHALLinux
import Foundation
import HardwareMocks
import XCTest
@testable import HapticRuntime

/// Mutated `.haptic` files and hostile audio: the reader reads or throws a located error, the
/// analysis always makes a valid clip or the decoder a clear error — never a crash or a hang.
final class HapticClipFuzzTests: XCTestCase {
    private static let fragments: [[UInt8]] = [
        "{", "}", "[", "]", ",", ":", "\"", "-", "1e999", "null", "true", "0", "2", "-0.5", "1.5", " ", "\n",
        "\"emphasis\": { \"amplitude\": 0.1, \"frequency\": 2 }", "\"time\": -1", "\"amplitude\": \"x\"", "\"major\": 2", "[[[[[[",
    ].map { Array($0.utf8) }

    func testMutatedClipsEitherReadOrFailWithALocatedError() throws {
        let example = try Data(contentsOf: HapticClipFixtures.examplesFolder.appendingPathComponent("haptic/impact-rumble.haptic"))
        let analysed = Data(SoundAnalyzer.clip(for: MonoSound(sampleRate: 48_000, samples: SyntheticSound.clickTrain(at: [0.05, 0.2], seconds: 0.3)), spectrum: linuxSpectrum).text.utf8)
        let sources = [Array(example), Array(analysed)]
        var random = SplitMix64(seed: 0xC11F)
        var (readCount, errorCount) = (0, 0)
        for iteration in 0..<3000 {
            var bytes = sources[iteration % sources.count]
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                ByteMutation.mutate(&bytes, inserting: Self.fragments, using: &random)
            }
            do {
                let content = try HapticClip.read(text: String(decoding: bytes, as: UTF8.self), file: "fuzz.haptic")
                let clip = try XCTUnwrap(content.clip)
                XCTAssertEqual(try HapticClip.read(text: clip.text, file: "again").clip, clip, "iteration \(iteration)")
                // Whatever reads also plays: it compiles for the sim board's actuator.
                XCTAssertGreaterThanOrEqual(content.pattern.duration, 0)
                readCount += 1
            } catch let error as HapticClipError {
                errorCount += 1
                let location = try XCTUnwrap(error.location, "iteration \(iteration): \(error)")
                XCTAssertTrue(error.description.hasPrefix("fuzz.haptic:\(location.line):\(location.column): "), error.description)
            }
        }
        // Both outcomes are exercised (one mutation in thirty or so leaves a valid clip).
        XCTAssertGreaterThan(readCount, 50)
        XCTAssertGreaterThan(errorCount, 1000)
    }

    func testTheAnalysisMakesAValidClipOfAnySamplesAtAnyRateWithAnySettings() throws {
        var random = SplitMix64(seed: 0xA0D10)
        let specials: [Float] = [.nan, .infinity, -.infinity, 1e30, -1e30, .leastNonzeroMagnitude, 0, 1, -1]
        for iteration in 0..<300 {
            let rate = [1, 7, 8_000, 22_050, 44_100, 48_000, 96_000, 384_000].randomElement(using: &random)!
            let count = Int.random(in: 0...4_000, using: &random)
            let samples = (0..<count).map { _ in
                Int.random(in: 0..<50, using: &random) == 0 ? specials.randomElement(using: &random)! : Float.random(in: -1.5...1.5, using: &random)
            }
            var settings = SoundAnalysisSettings()
            for setting in SoundAnalysisSettings.all where Bool.random(using: &random) {
                let span = setting.range.upperBound - setting.range.lowerBound
                var value = setting.range.lowerBound + Double.random(in: 0...1, using: &random) * min(span, 2_000)
                if setting.key == "fft-size" { value = Double([16, 32, 256, 1024, 4096].randomElement(using: &random)!) }
                if setting.key == "overlap" || setting.key.hasSuffix("density") || setting.key == "normalize" || setting.key == "emphasis" { value = value.rounded(.down) }
                try? settings.set(setting.key, to: value)
            }
            guard (try? settings.validate()) != nil else { continue }
            let clip = SoundAnalyzer.clip(for: MonoSound(sampleRate: rate, samples: samples), settings: settings, spectrum: linuxSpectrum)
            XCTAssertEqual(try HapticClip.read(text: clip.text, file: "analysed.haptic").clip, clip, "iteration \(iteration): rate \(rate), \(count) samples")
        }
    }

    func testMutatedSoundFilesDecodeOrFailClearly() throws {
        let folder = try TemporaryFolder()
        let source = folder.url.appendingPathComponent("source.wav")
        try SoundFileEncoder.write(samples: SyntheticSound.clickTrain(at: [0.02], seconds: 0.05), channels: 2, sampleRate: 8_000, container: .wav, to: source)
        let original = [UInt8](try Data(contentsOf: source))
        var random = SplitMix64(seed: 0x50D)
        let url = folder.url.appendingPathComponent("fuzz.wav")
        var (decoded, refused) = (0, 0)
        for _ in 0..<300 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                ByteMutation.mutate(&bytes, inserting: [[0xFF, 0xFF, 0xFF, 0x7F], [0, 0, 0, 0], Array("data".utf8)], using: &random)
            }
            try Data(bytes).write(to: url)
            do {
                let content = try SoundHaptics.load(contentsOf: url, reading: .linux())
                XCTAssertNotNil(try HapticClip.read(text: try XCTUnwrap(content.clip).text, file: "again").clip)
                decoded += 1
            } catch {
                XCTAssertTrue("\(error)".hasPrefix(url.path) || "\(error)".hasPrefix(url.relativePath), "\(error)")
                refused += 1
            }
        }
        XCTAssertGreaterThan(decoded, 10)
        XCTAssertGreaterThan(refused, 10)
    }
}
