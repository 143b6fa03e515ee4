import ActuatorHAL

/// Makes a `.haptic` clip from a sound, with the design tools' steps (Meta's open-source
/// `audio_analysis`, the analysis behind Meta Haptics Studio):
///
/// 1. one channel (the mean of the channels: `SoundDecoder.decodeMono`), DC removed by a
///    10 Hz one-pole high-pass, optionally normalised to full scale;
/// 2. the amplitude envelope: an RMS envelope follower with attack, hold and release
///    (`AmplitudeFollower`), sampled every update interval;
/// 3. spectra every fftSize / overlap samples (the platform's FFT): brightness (centroid below the
///    low-pass) and onset strength (spectral flux) per frame (`SpectralFrames`);
/// 4. the frequency envelope: brightness mapped to 0…1 (`FrequencyEnvelope`);
/// 5. both envelopes reduced to their breakpoint density, the most salient points kept
///    (Visvalingam–Whyatt per second, as the tools do);
/// 6. emphasis at onsets (`OnsetEmphasis`);
/// 7. the clip made valid v1 by construction (a breakpoint at 0 and at the end of each envelope,
///    values 0…1, times rounded to microseconds, emphasis never below its breakpoint).
public enum SoundAnalyzer {
    /// High-pass corner of the DC removal: below any frequency an actuator renders.
    static let dcCutoffHz = 10.0

    /// The clip for `sound`, its spectra through transforms `spectrum` makes; `source` goes into
    /// the clip's metadata (e.g. the file name).
    public static func clip(
        for sound: MonoSound, settings: SoundAnalysisSettings = SoundAnalysisSettings(), source: String = "",
        spectrum: (Int) -> (any MagnitudeSpectrum)?
    ) -> HapticClip {
        let rate = Double(max(1, sound.sampleRate))
        let samples = prepared(sound.samples, sampleRate: rate, normalize: settings.normalize)
        let duration = max(Double(samples.count) / rate, settings.updateIntervalMs / 1000)
        let envelope = AmplitudeFollower.envelope(of: samples, sampleRate: rate, settings: settings)
        let frames = SpectralFrames.frames(of: samples, sampleRate: rate, settings: settings, spectrum: spectrum)
        var amplitude = envelope.reducedByArea(perRegion: settings.amplitudeDensity)
            .map { AmplitudeBreakpoint(time: rounded($0.time, 1e6), amplitude: unit($0.value)) }
        anchor(&amplitude, end: rounded(duration, 1e6))
        OnsetEmphasis.place(on: &amplitude, frames: frames, sampleRate: rate, settings: settings)
        for index in amplitude.indices {
            amplitude[index].amplitude = unit(rounded(amplitude[index].amplitude, 1e4))
            if var emphasis = amplitude[index].emphasis {
                emphasis.amplitude = max(unit(rounded(emphasis.amplitude, 1e4)), amplitude[index].amplitude)
                emphasis.frequency = unit(rounded(emphasis.frequency, 1e4))
                amplitude[index].emphasis = emphasis
            }
        }
        let end = amplitude.last?.time ?? 0
        var frequency = FrequencyEnvelope.points(of: frames, settings: settings)
            .reducedByArea(perRegion: settings.frequencyDensity)
            .map { FrequencyBreakpoint(time: rounded($0.time, 1e6), frequency: unit(rounded($0.value, 1e4))) }
            .filter { $0.time <= end }
        if frequency.last?.time != end { frequency.append(FrequencyBreakpoint(time: end, frequency: frequency.last?.frequency ?? 0)) }
        let metadata = HapticClipMetadata(editor: "hapticboard", source: source, description: "made from a sound by hapticboard's analysis")
        return HapticClip(metadata: metadata, amplitude: amplitude, frequency: frequency)
    }

    /// DC removed (one-pole high-pass), then normalised to a peak of 1 when asked.
    static func prepared(_ samples: [Float], sampleRate: Double, normalize: Bool) -> [Float] {
        let pole = Float(1 - 2 * Double.pi * dcCutoffHz / sampleRate)
        var output = [Float](repeating: 0, count: samples.count)
        var previousInput: Float = samples.first ?? 0
        var previousOutput: Float = 0
        for index in samples.indices {
            let input = samples[index].isFinite ? samples[index] : 0
            previousOutput = input - previousInput + max(0, pole) * previousOutput
            previousInput = input
            output[index] = previousOutput
        }
        guard normalize, let peak = output.lazy.map(abs).max(), peak > 0 else { return output }
        let gain = 1 / peak
        return output.map { $0 * gain }
    }

    /// Breakpoints at 0 and at `end`, so the clip spans the whole sound and validates.
    private static func anchor(_ breakpoints: inout [AmplitudeBreakpoint], end: Double) {
        if breakpoints.first?.time != 0 { breakpoints.insert(AmplitudeBreakpoint(time: 0, amplitude: breakpoints.first?.amplitude ?? 0), at: 0) }
        breakpoints.removeAll { $0.time > end }
        if breakpoints.last?.time != end { breakpoints.append(AmplitudeBreakpoint(time: end, amplitude: breakpoints.last?.amplitude ?? 0)) }
    }

    private static func rounded(_ value: Double, _ scale: Double) -> Double { (value * scale).rounded() / scale }

    private static func unit(_ value: Double) -> Double { value.isNaN ? 0 : min(1, max(0, value)) }
}
