#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ActuatorHAL
import ActuatorHALLinux
import Foundation
import HapticRuntime

/// `bench --sound-analysis`: how fast `SoundAnalyzer` turns sound into a clip, and how its memory
/// grows with the clip's length. Each clip (1, 10 and 60 s at 48 kHz: clicks, a chirp and noise,
/// synthesised) is analysed `runs` times; the fastest run counts, since the machine is shared.
/// Memory is the growth of the process's peak resident size (ru_maxrss) during a clip's runs;
/// clips run shortest first, so each peak can only come from the clip that set it.
struct SoundAnalysisBench {
    struct Row: Encodable {
        var seconds: Double
        var analysisSeconds: Double
        /// Seconds of sound analysed per second of analysis.
        var timesRealTime: Double
        var peakGrowthMebibytes: Double
        var breakpoints: Int
        var emphasis: Int
    }

    static let sampleRate = 48_000
    static let lengths = [1.0, 10, 60]
    var runs = 3

    func run(progress: (String) -> Void) -> [Row] {
        Self.lengths.map { seconds in
            progress("bench: sound analysis of \(Int(seconds)) s at 48 kHz, best of \(runs)…")
            let sound = MonoSound(sampleRate: Self.sampleRate, samples: Self.testSound(seconds: seconds))
            let before = Self.peakResidentBytes
            var best = Double.infinity
            var clip = HapticClip(amplitude: [])
            for _ in 0..<runs {
                let start = DispatchTime.now().uptimeNanoseconds
                clip = SoundAnalyzer.clip(for: sound, spectrum: { RealFFT(size: $0) })
                best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            }
            return Row(seconds: seconds, analysisSeconds: best, timesRealTime: seconds / best,
                       peakGrowthMebibytes: Double(Self.peakResidentBytes - before) / Double(1 << 20),
                       breakpoints: clip.amplitude.count + (clip.frequency?.count ?? 0), emphasis: clip.emphasisCount)
        }
    }

    /// Clicks every 0.25 s over a chirp sweeping 50–400 Hz every second and a little noise.
    static func testSound(seconds: Double) -> [Float] {
        var random = SystemRandomNumberGenerator()
        let rate = Double(sampleRate)
        return (0..<Int(seconds * rate)).map { index in
            let time = Double(index) / rate
            let local = time.truncatingRemainder(dividingBy: 1)
            let chirp = 0.3 * sin(2 * Double.pi * (50 * local + 175 * local * local))
            let sinceClick = time.truncatingRemainder(dividingBy: 0.25)
            let click = sinceClick < 0.002 ? 0.8 * exp(-sinceClick / 0.0005) * (index % 2 == 0 ? 1 : -1) : 0
            return Float(chirp + click + Double.random(in: -0.01...0.01, using: &random))
        }
    }

    private static var peakResidentBytes: Int {
        var usage = rusage()
        guard getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage) == 0 else { return 0 }
        return usage.ru_maxrss * 1024
    }

    static func text(_ rows: [Row]) -> String {
        let table = TextTable(
            header: ["clip", "analysis", "× real time", "peak memory growth", "breakpoints", "emphasis"],
            rows: rows.map { row in
                ["\(Int(row.seconds)) s at 48 kHz", String(format: "%.1f ms", row.analysisSeconds * 1000), String(format: "%.0f×", row.timesRealTime),
                 String(format: "%.1f MiB", row.peakGrowthMebibytes), "\(row.breakpoints)", "\(row.emphasis)"]
            })
        return (["sound analysis (SoundAnalyzer, mono input; fastest of the runs):"] + table.lines.map { "  " + $0 }).joined(separator: "\n")
    }
}
