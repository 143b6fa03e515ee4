import Foundation
import HardwareMocks

/// Sounds the analysis tests synthesise, with what a designer would expect of their haptics.
enum SyntheticSound {
    static let rate = 48_000

    static func silence(seconds: Double) -> [Float] { [Float](repeating: 0, count: Int(seconds * Double(rate))) }

    /// Clicks of 1 ms of noise decaying with a 0.5 ms time constant (peak `level`) at `times` in `seconds` of silence.
    static func clickTrain(at times: [Double], seconds: Double, level: Float = 0.9, seed: UInt64 = 1) -> [Float] {
        var samples = silence(seconds: seconds)
        var random = SplitMix64(seed: seed)
        for time in times {
            let start = Int(time * Double(rate))
            for index in 0..<(rate / 1000) where start + index < samples.count {
                let decay = Float(exp(-Double(index) / Double(rate) / 0.0005))
                samples[start + index] = level * decay * Float.random(in: -1...1, using: &random)
            }
        }
        return samples
    }

    /// The envelope of `toneBurst`: 0 until `start`, a linear rise to `peak` over `attack`, held
    /// until `decayStart`, a linear fall to 0 over `decay`.
    struct BurstShape {
        var start = 0.1, attack = 0.05, peak = 0.8, decayStart = 0.5, decay = 0.3

        func level(at time: Double) -> Double {
            if time < start { return 0 }
            if time < start + attack { return peak * (time - start) / attack }
            if time < decayStart { return peak }
            return max(0, peak * (1 - (time - decayStart) / decay))
        }
    }

    /// A `frequency` Hz sine shaped by `shape`.
    static func toneBurst(_ shape: BurstShape, frequency: Double = 200, seconds: Double) -> [Float] {
        (0..<Int(seconds * Double(rate))).map { index in
            let time = Double(index) / Double(rate)
            return Float(shape.level(at: time) * sin(2 * Double.pi * frequency * time))
        }
    }

    /// A sine sweeping exponentially from `from` to `to` Hz over `seconds`, at `level`.
    static func chirp(from: Double, to: Double, seconds: Double, level: Double = 0.5) -> [Float] {
        let growth = log(to / from) / seconds
        return (0..<Int(seconds * Double(rate))).map { index in
            let time = Double(index) / Double(rate)
            // Phase: the integral of from · e^(growth·t).
            let phase = 2 * Double.pi * from * (exp(growth * time) - 1) / growth
            return Float(level * sin(phase))
        }
    }

    /// `channels` interleaved channels, `signal` in channel `into`, silence in the others.
    static func interleaved(_ signal: [Float], channels: Int, into channel: Int) -> [Float] {
        var samples = [Float](repeating: 0, count: signal.count * channels)
        for (frame, sample) in signal.enumerated() { samples[frame * channels + channel] = sample }
        return samples
    }
}
