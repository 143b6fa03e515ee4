import ActuatorHAL
import CDrivers
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writes sound files through libsndfile, the maintained library `SoundFileDecoder` reads them with.
///
/// Tests use it to hand the real decoder FLAC and Ogg/Vorbis files made on the spot by the
/// same library, knowing every sample they hold, with no binary fixtures committed.
public enum SoundFileEncoder {
    /// A file format the encoder writes.
    public enum Container: Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// RIFF/WAVE, 16-bit PCM.
        case wav
        /// FLAC, 16-bit: lossless, so a sample k/32768 decodes back exactly.
        case flac
        /// Vorbis in an Ogg container: lossy, libsndfile's default quality.
        case oggVorbis
        /// AIFF, 16-bit big-endian PCM.
        case aiff

        /// The usual file name extension, without the dot.
        public var fileExtension: String {
            switch self {
            case .wav: "wav"
            case .flac: "flac"
            case .oggVorbis: "ogg"
            case .aiff: "aiff"
            }
        }

        public var description: String {
            switch self {
            case .wav: "16-bit WAV"
            case .flac: "16-bit FLAC"
            case .oggVorbis: "Ogg/Vorbis"
            case .aiff: "16-bit AIFF"
            }
        }

        fileprivate var code: Int32 {
            switch self {
            case .wav: HB_SOUND_FILE_WAV
            case .flac: HB_SOUND_FILE_FLAC
            case .oggVorbis: HB_SOUND_FILE_OGG_VORBIS
            case .aiff: HB_SOUND_FILE_AIFF
            }
        }
    }

    /// Writes `samples` (interleaved, `channels` per frame, -1…1) at `sampleRate` to a new file at
    /// `url` in `container`, replacing any file there. The 16-bit containers store round(x × 32768),
    /// clipped, which libsndfile reads back as that integer / 32768.
    /// - Throws: `SoundFileEncodingError.invalidLayout` when the channel count or rate is not positive
    ///   or the samples are not whole frames; `.libsndfile` when the library refuses or fails.
    public static func write(samples: [Float], channels: Int, sampleRate: Int, container: Container, to url: URL) throws(SoundFileEncodingError) {
        let path = url.path
        guard let channelCount = UInt32(exactly: channels), channelCount > 0, let rate = UInt32(exactly: sampleRate), rate > 0 else {
            throw .invalidLayout(path: path, reason: "\(channels) channels at \(sampleRate) Hz")
        }
        guard samples.count.isMultiple(of: channels) else {
            throw .invalidLayout(path: path, reason: "\(samples.count) samples are not whole frames of \(channels) channels")
        }
        var message: UnsafePointer<CChar>?
        let error = samples.withUnsafeBufferPointer { buffer in
            hb_sound_file_write(path, container.code, buffer.baseAddress, UInt(samples.count / channels), channelCount, rate, &message)
        }
        guard error == 0 else {
            throw .libsndfile(path: path, container: container, code: Int(error), reason: message.map { String(cString: $0) } ?? "error \(error)")
        }
    }
}
