import ActuatorHAL
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The sound files a piece of content names, decoded once at the output rate.
///
/// Waveform paths are resolved inside `folder` with the AHAP rules (relative only, never leaving
/// the folder, symbolic links followed and checked), so notes files and AHAP files are held to
/// the same safety rules.
public final class SoundLibrary {
    /// Decodes files (libsndfile on Linux; anything in tests).
    public let decoder: any SoundDecoder
    /// Output rate every sound is converted to.
    public let sampleRate: Int
    /// The folder waveform paths are relative to (the AHAP or notes file's folder).
    public let folder: URL
    private var cache: [URL: DecodedSound] = [:]

    /// A library reading from `folder` at `sampleRate`.
    public init(decoder: any SoundDecoder, sampleRate: Int, folder: URL) {
        self.decoder = decoder
        self.sampleRate = sampleRate
        self.folder = folder
    }

    /// A library for the waveforms of the content file `contentFile` (paths relative to its folder).
    public convenience init(decoder: any SoundDecoder, sampleRate: Int, contentFile: URL) {
        self.init(decoder: decoder, sampleRate: sampleRate, folder: contentFile.absoluteURL.deletingLastPathComponent())
    }

    /// Extensions tried, in order, for a name given without one (Piano's `.asset(name:)`).
    public static let assetExtensions = ["wav", "flac", "ogg", "oga", "aiff"]

    /// The decoded sound `path` names; a path without an extension that names no file is tried
    /// with each of `assetExtensions`.
    /// - Throws: `AudioContentError.waveformPath` when the path is refused or missing, `.decoding`
    ///   when the decoder fails.
    public func sound(forWaveform path: String) throws(AudioContentError) -> DecodedSound {
        let url: URL
        switch AHAPWaveformResolver.resolve(path, inFolder: folder) {
        case .success(let resolved): url = resolved
        case .failure(let problem):
            let asset = URL(fileURLWithPath: path).pathExtension.isEmpty
                ? Self.assetExtensions.lazy.compactMap({ try? AHAPWaveformResolver.resolve(path + "." + $0, inFolder: self.folder).get() }).first
                : nil
            guard let asset else { throw .waveformPath(path: path, problem: problem) }
            url = asset
        }
        return try sound(at: url)
    }

    /// The decoded sound file at `url`, wherever it is: for a sound the application names itself
    /// (Piano's `.url`), not content, so no folder rule applies.
    /// - Throws: `AudioContentError.decoding` when the decoder fails.
    public func sound(at url: URL) throws(AudioContentError) -> DecodedSound {
        if let cached = cache[url] { return cached }
        do {
            let sound = try decoder.decode(contentsOf: url, sampleRate: sampleRate)
            cache[url] = sound
            return sound
        } catch {
            throw .decoding(error)
        }
    }
}
