/// The frequency envelope of a sound: its brightness (spectral centroid below the low-pass) mapped
/// linearly from frequency-min-hz…frequency-max-hz to 0…1, one point per spectral frame; quiet
/// frames hold the last value (brightness of silence means nothing and would only add points).
enum FrequencyEnvelope {
    static func normalized(_ centroid: Double, settings: SoundAnalysisSettings) -> Double {
        let span = settings.frequencyMaxHz - settings.frequencyMinHz
        guard span > 0 else { return 0 }
        return min(1, max(0, (centroid - settings.frequencyMinHz) / span))
    }

    static func points(of frames: [SpectralFrame], settings: SoundAnalysisSettings) -> [EnvelopePoint] {
        let first = frames.lazy.compactMap(\.centroid).first.map { normalized($0, settings: settings) } ?? 0
        var value = first
        return frames.map { frame in
            if let centroid = frame.centroid { value = normalized(centroid, settings: settings) }
            return EnvelopePoint(time: frame.time, value: value)
        }
    }
}
