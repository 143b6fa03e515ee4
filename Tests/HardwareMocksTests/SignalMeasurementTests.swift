import HardwareMocks
import XCTest

final class SignalMeasurementTests: XCTestCase {
    private func tone(_ frequency: Double, frames: Int, amplitude: Double = 0.8, rate: Int = 48_000) -> [Double] {
        (0..<frames).map { amplitude * sin(2 * Double.pi * frequency * Double($0) / Double(rate)) }
    }

    private func noise(frames: Int, seed: UInt64) -> [Double] {
        var generator = SplitMix64(seed: seed)
        return (0..<frames).map { _ in Double.random(in: -0.5...0.5, using: &generator) }
    }

    func testDominantFrequencyFindsATonesPitchWithinAHundredthOfAHertzOfTheGrid() throws {
        // 0.25 s gives 4 Hz DFT bins: the fine grid must land well inside one.
        let signal = zip(tone(163.37, frames: 12_000), tone(300, frames: 12_000, amplitude: 0.3)).map { $0 + $1 }
        let frequency = try XCTUnwrap(SignalMeasurement.dominantFrequency(of: signal, sampleRate: 48_000, in: 50...400))
        XCTAssertEqual(frequency, 163.37, accuracy: 0.05)
        XCTAssertNil(SignalMeasurement.dominantFrequency(of: [], sampleRate: 48_000, in: 50...400))
    }

    func testBestAlignmentFindsAScaledCopyInsideSilenceAndNoise() throws {
        let reference = noise(frames: 480, seed: 7)
        var signal = [Double](repeating: 0, count: 5000)
        for (index, sample) in reference.enumerated() { signal[1234 + index] = 0.3 * sample }
        let found = try XCTUnwrap(SignalMeasurement.bestAlignment(of: reference, in: signal, lags: 1000...1500))
        XCTAssertEqual(found.lag, 1234)
        XCTAssertEqual(found.correlation, 1, accuracy: 1e-9)

        let other = noise(frames: 5000, seed: 8)
        let unrelated = try XCTUnwrap(SignalMeasurement.bestAlignment(of: reference, in: other, lags: 0...4000))
        XCTAssertLessThan(unrelated.correlation, 0.3, "a different noise is not the reference")
        XCTAssertNil(SignalMeasurement.bestAlignment(of: reference, in: Array(signal[0..<100]), lags: 0...10), "the reference does not fit")
        XCTAssertNil(SignalMeasurement.bestAlignment(of: reference, in: [Double](repeating: 0, count: 1000), lags: 0...100), "silence matches nothing")
    }

    func testSoundingSpansBridgeZeroCrossingsButNotRests() {
        var signal = [Double](repeating: 0, count: 10_000)
        let burst = tone(160, frames: 3000)
        signal.replaceSubrange(1000..<4000, with: burst)
        signal.replaceSubrange(6000..<6300, with: tone(160, frames: 300))
        signal[9000] = 0.0005 // under the threshold: silence
        let spans = SignalMeasurement.soundingSpans(in: signal, above: 0.001, minimumGap: 48)
        XCTAssertEqual(spans.count, 2)
        XCTAssertEqual(spans.first?.lowerBound, 1001, "a sine's first sample is 0")
        XCTAssertEqual(Double(spans.first?.upperBound ?? 0), 4000, accuracy: 2)
        XCTAssertEqual(spans.last?.lowerBound, 6001)
        XCTAssertEqual(SignalMeasurement.soundingSpans(in: [0, 0, 0], above: 0.001, minimumGap: 1), [])
    }
}
