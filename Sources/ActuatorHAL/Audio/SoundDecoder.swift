#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decodes sound files. The runtime is given one — the libsndfile `SoundFileDecoder` of the Linux
/// back end, a table of generated sounds in tests — so it never links a codec itself.
public protocol SoundDecoder: Sendable {
    /// The file at `url`, converted to `sampleRate`.
    func decode(contentsOf url: URL, sampleRate: Int) throws(SoundFileError) -> DecodedSound

    /// The file at `url` at its own rate, mixed down to one channel (the mean of its channels);
    /// more than `maximumDuration` seconds is `.tooLong`.
    func decodeMono(contentsOf url: URL, maximumDuration: Double) throws(SoundFileError) -> MonoSound
}
