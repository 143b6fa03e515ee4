import ArgumentParser
import Foundation
import HapticRuntime

/// The settings of the sound analysis (haptics from a sound), each an option named as its preset
/// key, over a preset file, over the design tools' defaults (`SoundAnalysisSettings`).
struct SoundAnalysisOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("A JSON preset of analysis settings (keys as the options below, e.g. {\"release-ms\": 80}); options given override it.", valueName: "file"))
    var preset: String?

    @Flag(name: .long, inversion: .prefixedNo, help: "Scale the sound to full scale before analysis (default: no).")
    var normalize: Bool?
    @Option(help: ArgumentHelp("Amplitude envelope sampled every N ms (default 1).", valueName: "ms")) var updateIntervalMs: Double?
    @Option(help: ArgumentHelp("Envelope attack: ms through full scale (default 0.1).", valueName: "ms")) var attackMs: Double?
    @Option(help: ArgumentHelp("Envelope hold after a peak (default 1.5 ms).", valueName: "ms")) var holdMs: Double?
    @Option(help: ArgumentHelp("Envelope release: ms through full scale (default 100).", valueName: "ms")) var releaseMs: Double?
    @Option(help: ArgumentHelp("RMS window the envelope follows (default 0.1 ms).", valueName: "ms")) var rmsWindowMs: Double?
    @Option(help: ArgumentHelp("FFT frame in samples, even (default 1024).", valueName: "n")) var fftSize: Double?
    @Option(help: ArgumentHelp("FFT frames per frame length (default 8).", valueName: "n")) var overlap: Double?
    @Option(help: ArgumentHelp("Spectral centroid computed below this (default 1000 Hz).", valueName: "hz")) var centroidLowpassHz: Double?
    @Option(help: ArgumentHelp("Centroid mapped to frequency 0 (default 30 Hz).", valueName: "hz")) var frequencyMinHz: Double?
    @Option(help: ArgumentHelp("Centroid mapped to frequency 1 (default 600 Hz).", valueName: "hz")) var frequencyMaxHz: Double?
    @Flag(name: .long, inversion: .prefixedNo, help: "Detect onsets as emphasis (default: yes).")
    var emphasis: Bool?
    @Option(help: ArgumentHelp("Onsets kept as emphasis, 0–100 % (default 50).", valueName: "percent")) var sensitivityPercent: Double?
    @Option(help: ArgumentHelp("Least time between two emphasis (default 100 ms).", valueName: "ms")) var peakWindowMs: Double?
    @Option(help: ArgumentHelp("Least amplitude rise into an onset (default 0.1).", valueName: "0…1")) var minimumRise: Double?
    @Option(help: ArgumentHelp("Rise allowed after an onset, % of the rise into it (default 25).", valueName: "percent")) var plateauPercent: Double?
    @Option(help: ArgumentHelp("Continuous amplitude lowered at an emphasis (default 50 %).", valueName: "percent")) var duckingPercent: Double?
    @Option(help: ArgumentHelp("Amplitude breakpoints per second, at most (default 60).", valueName: "n")) var amplitudeDensity: Double?
    @Option(help: ArgumentHelp("Frequency breakpoints per second, at most (default 60).", valueName: "n")) var frequencyDensity: Double?

    /// The options given on the command line, by preset key.
    private var given: [(key: String, value: Double?)] {
        [("normalize", normalize.map { $0 ? 1 : 0 }), ("update-interval-ms", updateIntervalMs), ("attack-ms", attackMs),
         ("hold-ms", holdMs), ("release-ms", releaseMs), ("rms-window-ms", rmsWindowMs), ("fft-size", fftSize),
         ("overlap", overlap), ("centroid-lowpass-hz", centroidLowpassHz), ("frequency-min-hz", frequencyMinHz),
         ("frequency-max-hz", frequencyMaxHz), ("emphasis", emphasis.map { $0 ? 1 : 0 }),
         ("sensitivity-percent", sensitivityPercent), ("peak-window-ms", peakWindowMs), ("minimum-rise", minimumRise),
         ("plateau-percent", plateauPercent), ("ducking-percent", duckingPercent),
         ("amplitude-density", amplitudeDensity), ("frequency-density", frequencyDensity)]
    }

    /// Defaults, then the preset, then the options; each value checked.
    func settings() throws -> SoundAnalysisSettings {
        var settings = SoundAnalysisSettings()
        if let preset {
            settings = try settings.applying(presetAt: URL(fileURLWithPath: preset))
        }
        for (key, value) in given {
            guard let value else { continue }
            do {
                try settings.set(key, to: value)
            } catch {
                throw CommandLineError.content("--\(error.description)")
            }
        }
        do {
            try settings.validate()
        } catch {
            throw CommandLineError.content(error.description)
        }
        return settings
    }
}
