import FoundationEssentials
import Glibc

/// Places emphasis on the amplitude envelope where the sound has onsets, as the design tools do:
/// a breakpoint is an onset candidate when the amplitude rose into it by at least the minimum
/// rise, does not go on rising by more than the plateau share after it, and lies a peak window
/// after the previous candidate; its strength is the spectral flux there. Candidates strong
/// enough for the sensitivity become emphasis — amplitude the breakpoint's, frequency the sound's
/// brightness there — and their breakpoint is ducked.
///
/// Strength is judged on a logarithmic scale against the strongest onset: a candidate is kept when
/// its flux is at least the strongest's × 10^(−s / (100 − s)) for sensitivity s %, so 50 % keeps
/// onsets within a factor of 10 (20 dB) of the strongest, 25 % within 2.2×, 75 % within 1000×,
/// 100 % every candidate and 0 % none. (The tools scale linearly between the weakest and the
/// strongest instead; then one loud onset — a sound starting from silence is one — hides every
/// ordinary click after it, and a train of equal clicks keeps an arbitrary half of them.)
enum OnsetEmphasis {
    static func place(on breakpoints: inout [AmplitudeBreakpoint], frames: [SpectralFrame], sampleRate: Double, settings: SoundAnalysisSettings) {
        guard settings.emphasis, settings.sensitivityPercent > 0, breakpoints.count > 1 else { return }
        let peakWindow = settings.peakWindowMs / 1000
        let plateau = settings.plateauPercent / 100
        var candidates: [(index: Int, strength: Double)] = []
        var previous = 0.0
        var lastPeak: Double?
        for index in 0..<(breakpoints.count - 1) {
            let (current, next) = (breakpoints[index], breakpoints[index + 1])
            let rise = current.amplitude - previous
            let settles = next.amplitude < current.amplitude || next.amplitude < current.amplitude + rise * plateau
            if rise > settings.minimumRise, settles, lastPeak.map({ current.time - $0 >= peakWindow }) ?? true {
                candidates.append((index, strength(at: current.time, frames: frames, settings: settings, sampleRate: sampleRate)))
                lastPeak = current.time
            }
            previous = current.amplitude
        }
        guard let strongest = candidates.map(\.strength).max() else { return }
        let sensitivity = settings.sensitivityPercent
        let threshold = sensitivity >= 100 ? 0 : strongest * pow(10, -sensitivity / (100 - sensitivity))
        let keep = 1 - settings.duckingPercent / 100
        for candidate in candidates where candidate.strength >= threshold {
            let amplitude = breakpoints[candidate.index].amplitude
            let frequency = brightness(at: breakpoints[candidate.index].time, frames: frames, settings: settings, sampleRate: sampleRate)
            breakpoints[candidate.index].emphasis = Emphasis(amplitude: amplitude, frequency: frequency)
            breakpoints[candidate.index].amplitude = amplitude * keep
        }
    }

    /// The largest flux among the frames that see `time` (within half a frame of it): the
    /// envelope's peak comes a little after the onset the flux marks.
    private static func strength(at time: Double, frames: [SpectralFrame], settings: SoundAnalysisSettings, sampleRate: Double) -> Double {
        let reach = Double(settings.fftSize) / 2 / sampleRate
        return framesNear(time, within: reach, in: frames).map(\.flux).max() ?? 0
    }

    /// The mapped centroid of the loud frame nearest `time` among those that see it (0.5 when
    /// none of them is loud).
    private static func brightness(at time: Double, frames: [SpectralFrame], settings: SoundAnalysisSettings, sampleRate: Double) -> Double {
        let reach = Double(settings.fftSize) / 2 / sampleRate
        let nearest = framesNear(time, within: reach, in: frames).filter { $0.centroid != nil }.min { abs($0.time - time) < abs($1.time - time) }
        guard let centroid = nearest?.centroid else { return 0.5 }
        return FrequencyEnvelope.normalized(centroid, settings: settings)
    }

    private static func framesNear(_ time: Double, within reach: Double, in frames: [SpectralFrame]) -> ArraySlice<SpectralFrame> {
        var low = 0
        var high = frames.count
        while low < high {
            let middle = (low + high) / 2
            if frames[middle].time < time - reach { low = middle + 1 } else { high = middle }
        }
        var end = low
        while end < frames.count, frames[end].time <= time + reach { end += 1 }
        return frames[low..<end]
    }
}
