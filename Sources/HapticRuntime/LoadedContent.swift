/// The content formats hapticboard reads.
public enum ContentFormat: String, Sendable, Hashable, CaseIterable {
    /// Apple Haptic Audio Pattern (`.ahap`, `.json`).
    case ahap
    /// Haptic Notation Language (`.hnl`, `.haptic-notation`).
    case notation
    /// Piano-style note list (`.notes`, `.notes.json`).
    case notes
    /// Meta/Lofelt `.haptic` v1 clip (`.haptic`).
    case haptic
    /// A sound file (WAV, FLAC, OGG/Vorbis, AIFF) whose haptics are derived by `SoundAnalyzer`.
    case sound
}

/// Something a reader accepted but changed or ignored: a clamped value, a split event, an unknown key.
public struct ContentWarning: Sendable, Hashable, CustomStringConvertible {
    /// Where: `file:line:column` and/or a key path such as `Pattern[3].Event.EventParameters[0]`.
    public var location: String
    public var message: String

    public init(location: String, message: String) {
        self.location = location
        self.message = message
    }

    public var description: String { "\(location): warning: \(message)" }
}

/// A pattern read from some source, with what the reader had to say about it.
public struct LoadedContent: Sendable, Hashable {
    public var format: ContentFormat
    public var pattern: HapticPattern
    public var warnings: [ContentWarning]
    /// The clip itself when the content is a `.haptic` clip or was derived from a sound: the
    /// pattern is made from it, and `.haptic` output writes it unchanged.
    public var clip: HapticClip?
    /// AudioCustom waveform files that cannot be played (missing, or refused by the path rules),
    /// each as the located error it becomes where the sound would be played: content with sounds
    /// still loads, so its haptics play on a board without audio (Core Haptics' `playsHapticsOnly`);
    /// see ``requirePlayableWaveforms()``.
    public var waveformProblems: [AHAPError]

    public init(format: ContentFormat, pattern: HapticPattern, warnings: [ContentWarning] = [], clip: HapticClip? = nil, waveformProblems: [AHAPError] = []) {
        self.format = format
        self.pattern = pattern
        self.warnings = warnings
        self.clip = clip
        self.waveformProblems = waveformProblems
    }

    /// Throws the first waveform problem: for callers that will play the content's sounds, or
    /// that want every file to be complete (`--strict`).
    public func requirePlayableWaveforms() throws(AHAPError) {
        if let problem = waveformProblems.first { throw problem }
    }

    /// Audio events (AudioContinuous, AudioCustom) in the pattern.
    public var audioEventCount: Int { pattern.events.count { !$0.type.isHaptic } }
}
