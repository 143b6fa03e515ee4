#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HardwareMocks

/// The lane's reference sound: a burst of uniform noise at half scale from a fixed seed, written as
/// a mono 16-bit WAV. Noise rather than a tone because a tone correlates with itself shifted by
/// any whole number of cycles; noise matches itself at one lag only.
struct NoiseBurst {
    let path: String
    let frames: Int
    let sampleRate: Int

    init(arguments: ArraySlice<String>) throws(CaptureToolError) {
        let options = try CaptureOptions(arguments, allowed: ["--milliseconds", "--rate"])
        path = options.positional
        let rate = try options.number("--rate", default: 48_000)
        let milliseconds = try options.number("--milliseconds", default: 50)
        guard rate >= 8000, rate <= 192_000, milliseconds > 0, milliseconds <= 10_000 else {
            throw .usage("--rate must be 8000...192000 and --milliseconds 0...10000")
        }
        sampleRate = Int(rate)
        frames = Int((milliseconds * rate / 1000).rounded())
    }

    func write() throws {
        var generator = SplitMix64(seed: 0x5EED_B0A2D)
        let samples = (0..<frames).map { _ in Int16.random(in: -16_384...16_384, using: &generator) }
        try WAVFile.write(samples: samples, channels: 1, sampleRate: sampleRate, to: URL(fileURLWithPath: path))
    }
}
