import ActuatorHAL
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decodes a sound file to float frames at a wanted rate. The runtime is given one (the
/// libsndfile `SoundFileDecoder` on Linux, a table of generated sounds in tests) so it never
/// links a codec itself.
public protocol SoundDecoder: Sendable {
    /// The file at `url`, converted to `sampleRate`.
    func decode(contentsOf url: URL, sampleRate: Int) throws(SoundFileError) -> DecodedSound
}

extension SoundFileDecoder: SoundDecoder {
    /// Decodes with libsndfile and resamples with libsamplerate.
    public func decode(contentsOf url: URL, sampleRate: Int) throws(SoundFileError) -> DecodedSound {
        try decode(path: url.path, sampleRate: sampleRate)
    }
}
