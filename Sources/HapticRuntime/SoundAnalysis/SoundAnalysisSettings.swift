/// Every setting of `SoundAnalyzer`, with the defaults of the design tools' analysis (Meta's
/// open-source `audio_analysis`). Each is a `convert`/`play` option of the same name and a key of
/// a preset file (see ``read(preset:file:)``).
public struct SoundAnalysisSettings: Sendable, Hashable {
    /// Scale the sound so its peak is full scale before analysis.
    public var normalize = false
    /// The amplitude envelope is sampled this often (ms).
    public var updateIntervalMs = 1.0
    /// Envelope follower: time to rise through full scale (ms).
    public var attackMs = 0.1
    /// Envelope follower: how long a peak holds before the release starts (ms).
    public var holdMs = 1.5
    /// Envelope follower: time to fall through full scale (ms).
    public var releaseMs = 100.0
    /// Length of the RMS window the follower tracks (ms).
    public var rmsWindowMs = 0.1
    /// FFT frame length in samples (even).
    public var fftSize = 1024
    /// Frames per FFT length: 8 means a new frame every fftSize / 8 samples.
    public var overlap = 8
    /// The spectral centroid looks at the spectrum below this (Hz).
    public var centroidLowpassHz = 1000.0
    /// A centroid at or below this maps to frequency 0 (Hz).
    public var frequencyMinHz = 30.0
    /// A centroid at or above this maps to frequency 1 (Hz).
    public var frequencyMaxHz = 600.0
    /// Whether onsets become emphasis.
    public var emphasis = true
    /// 0 % keeps no onset as emphasis, 100 % every one; in between an onset is kept when its
    /// spectral flux is within a factor 10^(s / (100 − s)) of the strongest onset's (50 %: 10×).
    public var sensitivityPercent = 50.0
    /// Two emphasis are at least this far apart (ms).
    public var peakWindowMs = 100.0
    /// An envelope breakpoint is an onset only if the amplitude rose at least this much into it.
    public var minimumRise = 0.1
    /// A rise may go on after an onset by this share of the rise into it and still count as one (%).
    public var plateauPercent = 25.0
    /// The continuous amplitude at an emphasis is lowered by this (%), so the click stands out.
    public var duckingPercent = 50.0
    /// Amplitude breakpoints kept per second, at most.
    public var amplitudeDensity = 60
    /// Frequency breakpoints kept per second, at most.
    public var frequencyDensity = 60

    /// The defaults.
    public init() {}

    /// One setting: its preset key and option name, a description, and how to read and write it.
    public struct Setting: Sendable {
        public let key: String
        public let help: String
        let range: ClosedRange<Double>
        let get: @Sendable (SoundAnalysisSettings) -> Double
        let set: @Sendable (inout SoundAnalysisSettings, Double) -> Void
        /// Whether the value is a whole number, or a flag (0 or 1).
        let kind: Kind

        enum Kind: Sendable { case number, whole, flag }
    }

    /// Every setting, in the order help lists them.
    public static let all: [Setting] = [
        Setting(key: "normalize", help: "scale the sound to full scale first (true/false)", range: 0...1, get: { $0.normalize ? 1 : 0 }, set: { $0.normalize = $1 != 0 }, kind: .flag),
        Setting(key: "update-interval-ms", help: "amplitude envelope sampled every N ms", range: 0.05...100, get: { $0.updateIntervalMs }, set: { $0.updateIntervalMs = $1 }, kind: .number),
        Setting(key: "attack-ms", help: "envelope attack, ms through full scale", range: 0...10_000, get: { $0.attackMs }, set: { $0.attackMs = $1 }, kind: .number),
        Setting(key: "hold-ms", help: "envelope hold after a peak, ms", range: 0...10_000, get: { $0.holdMs }, set: { $0.holdMs = $1 }, kind: .number),
        Setting(key: "release-ms", help: "envelope release, ms through full scale", range: 0...10_000, get: { $0.releaseMs }, set: { $0.releaseMs = $1 }, kind: .number),
        Setting(key: "rms-window-ms", help: "RMS window the envelope follows, ms", range: 0...1000, get: { $0.rmsWindowMs }, set: { $0.rmsWindowMs = $1 }, kind: .number),
        Setting(key: "fft-size", help: "FFT frame in samples (even, 16…65536)", range: 16...65_536, get: { Double($0.fftSize) }, set: { $0.fftSize = Int($1) }, kind: .whole),
        Setting(key: "overlap", help: "FFT frames per frame length (1…64)", range: 1...64, get: { Double($0.overlap) }, set: { $0.overlap = Int($1) }, kind: .whole),
        Setting(key: "centroid-lowpass-hz", help: "spectral centroid computed below this frequency", range: 1...1_000_000, get: { $0.centroidLowpassHz }, set: { $0.centroidLowpassHz = $1 }, kind: .number),
        Setting(key: "frequency-min-hz", help: "centroid mapped to frequency 0", range: 0...1_000_000, get: { $0.frequencyMinHz }, set: { $0.frequencyMinHz = $1 }, kind: .number),
        Setting(key: "frequency-max-hz", help: "centroid mapped to frequency 1", range: 0...1_000_000, get: { $0.frequencyMaxHz }, set: { $0.frequencyMaxHz = $1 }, kind: .number),
        Setting(key: "emphasis", help: "detect onsets as emphasis (true/false)", range: 0...1, get: { $0.emphasis ? 1 : 0 }, set: { $0.emphasis = $1 != 0 }, kind: .flag),
        Setting(key: "sensitivity-percent", help: "share of onsets kept as emphasis, 0…100", range: 0...100, get: { $0.sensitivityPercent }, set: { $0.sensitivityPercent = $1 }, kind: .number),
        Setting(key: "peak-window-ms", help: "least time between two emphasis, ms", range: 0...60_000, get: { $0.peakWindowMs }, set: { $0.peakWindowMs = $1 }, kind: .number),
        Setting(key: "minimum-rise", help: "least amplitude rise into an onset, 0…1", range: 0...1, get: { $0.minimumRise }, set: { $0.minimumRise = $1 }, kind: .number),
        Setting(key: "plateau-percent", help: "rise allowed after an onset, % of the rise into it", range: 0...1000, get: { $0.plateauPercent }, set: { $0.plateauPercent = $1 }, kind: .number),
        Setting(key: "ducking-percent", help: "continuous amplitude lowered at an emphasis, %", range: 0...100, get: { $0.duckingPercent }, set: { $0.duckingPercent = $1 }, kind: .number),
        Setting(key: "amplitude-density", help: "amplitude breakpoints per second, at most", range: 2...10_000, get: { Double($0.amplitudeDensity) }, set: { $0.amplitudeDensity = Int($1) }, kind: .whole),
        Setting(key: "frequency-density", help: "frequency breakpoints per second, at most", range: 2...10_000, get: { Double($0.frequencyDensity) }, set: { $0.frequencyDensity = Int($1) }, kind: .whole),
    ]

    /// The setting named `key`.
    public static func setting(named key: String) -> Setting? { all.first { $0.key == key } }

    /// Sets `key` to `value`, or says why not (unknown key, out of range, not whole, min ≥ max).
    public mutating func set(_ key: String, to value: Double) throws(SoundAnalysisSettingsError) {
        guard let setting = Self.setting(named: key) else {
            throw .unknownSetting(key, suggestion: NameSuggestion.nearest(to: key, in: Self.all.map(\.key)))
        }
        guard value.isFinite, setting.range.contains(value) else { throw .outOfRange(key, value: value, range: setting.range) }
        if setting.kind != .number, value != value.rounded() { throw .notWhole(key, value: value) }
        if key == "fft-size", Int(value) % 2 != 0 { throw .notWhole(key, value: value) }
        setting.set(&self, value)
    }

    /// The value of `key` (flags as 0/1).
    public func value(of key: String) -> Double? { Self.setting(named: key).map { $0.get(self) } }

    /// Checks the settings together: the frequency range must not be empty.
    public func validate() throws(SoundAnalysisSettingsError) {
        guard frequencyMaxHz > frequencyMinHz else { throw .emptyFrequencyRange(minimum: frequencyMinHz, maximum: frequencyMaxHz) }
    }
}
