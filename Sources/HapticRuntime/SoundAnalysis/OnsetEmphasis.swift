/// Places emphasis on the amplitude envelope where the sound has onsets, as the design tools do:
/// a breakpoint is an onset candidate when the amplitude rose into it by at least the minimum
/// rise, does not go on rising by more than the plateau share after it, and lies a peak window
/// after the previous candidate; its strength is the spectral flux there. Candidates whose flux
/// is at least (100 % − sensitivity) of the strongest candidate's become emphasis — amplitude the
/// breakpoint's, frequency the sound's brightness there — and their breakpoint is ducked.
///
/// The threshold is relative to the strongest onset (the tools scale between the weakest and the
/// strongest instead), so a train of equal clicks keeps every click at any sensitivity above 0.
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
        let threshold = strongest * (1 - settings.sensitivityPercent / 100)
        let keep = 1 - settings.duckingPercent / 100
        for candidate in candidates where candidate.strength >= threshold {
            let amplitude = breakpoints[candidate.index].amplitude
            let frequency = brightness(at: breakpoints[candidate.index].time, frames: frames, settings: settings)
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

    /// The mapped centroid of the loud frame nearest `time` (0.5 when none is loud).
    private static func brightness(at time: Double, frames: [SpectralFrame], settings: SoundAnalysisSettings) -> Double {
        let nearest = frames.filter { $0.centroid != nil }.min { abs($0.time - time) < abs($1.time - time) }
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
