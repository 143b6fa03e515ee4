import ActuatorHAL
import FoundationEssentials

/// Haptics for a sound file: decoded by the platform's decoder (libsndfile on Linux: WAV, FLAC,
/// OGG/Vorbis, AIFF; any rate and channel count, mixed to one channel), analysed by
/// `SoundAnalyzer`, and played beside the sound.
public enum SoundHaptics {
    /// File extensions read as sounds.
    public static let extensions = ["wav", "wave", "flac", "ogg", "oga", "aif", "aiff", "aifc"]
    /// The longest sound analysed: as long as the longest program the compiler builds.
    public static let maximumDuration = CompilerOptions().maximumDuration

    /// The decoded sound of the file at `url`, one channel.
    public static func decode(contentsOf url: URL, with decoder: any SoundDecoder) throws(SoundFileError) -> MonoSound {
        let sound = try decoder.decodeMono(contentsOf: url, maximumDuration: maximumDuration)
        guard !sound.samples.isEmpty else { throw .decoding(path: url.relativePath, reason: "the file holds no audio (zero frames)") }
        return sound
    }

    /// The content of the sound file at `url`: its clip, and a pattern of the clip's haptics plus
    /// the sound itself as an AudioCustom event at 0 (waveform path: the file's name, beside it),
    /// so a board with a sound output plays both in step and one without plays the haptics.
    public static func load(contentsOf url: URL, reading: SoundReading) throws(SoundFileError) -> LoadedContent {
        let sound = try decode(contentsOf: url, with: reading.decoder)
        return content(for: clip(for: sound, reading: reading, source: url.lastPathComponent), soundFile: url)
    }

    /// The clip `reading` makes of `sound`.
    public static func clip(for sound: MonoSound, reading: SoundReading, source: String) -> HapticClip {
        SoundAnalyzer.clip(for: sound, settings: reading.settings, source: source, spectrum: reading.spectrum)
    }

    /// Content of `clip` made from the sound at `soundFile`, with the sound as its AudioCustom event.
    public static func content(for clip: HapticClip, soundFile: URL) -> LoadedContent {
        var pattern = clip.pattern
        pattern.events.insert(HapticEvent(type: .audioCustom, time: 0, waveformPath: soundFile.lastPathComponent), at: 0)
        return LoadedContent(format: .sound, pattern: pattern, clip: clip)
    }

    /// Whether `data` starts like a sound file libsndfile reads (RIFF/WAVE, RF64, FLAC, Ogg, AIFF).
    public static func looksLikeSound(_ data: Data) -> Bool {
        let head = [UInt8](data.prefix(12))
        func text(_ range: Range<Int>) -> String { head.count >= range.upperBound ? String(decoding: head[range], as: UTF8.self) : "" }
        return (["RIFF", "RF64"].contains(text(0..<4)) && text(8..<12) == "WAVE")
            || text(0..<4) == "fLaC" || text(0..<4) == "OggS"
            || (text(0..<4) == "FORM" && ["AIFF", "AIFC"].contains(text(8..<12)))
    }
}
