import ActuatorHAL
import Foundation
import CDrivers

/// Decodes sound files with libsndfile (WAV, FLAC, OGG/Vorbis and whatever else the installed
/// library reads) and converts them to a device's rate with libsamplerate.
public struct SoundFileDecoder: Sendable {
    /// A decoder; it keeps no state between files.
    public init() {}

    /// Every frame of the file at `path`, at the file's own rate.
    /// - Throws: `SoundFileError.unreadable` (missing file, unknown format), `.decoding`, `.tooLarge`.
    public func decode(path: String) throws(SoundFileError) -> DecodedSound {
        let read = try Self.read(path, maximumDuration: nil) { path, samples, frames, channels, rate, message, opened in
            hb_sound_file_read(path, samples, frames, channels, rate, message, opened)
        }
        defer { hb_sound_file_free(read.samples) }
        let count = read.frames * read.channels
        return DecodedSound(sampleRate: read.rate, channels: read.channels, samples: Array(UnsafeBufferPointer(start: read.samples, count: count)))
    }

    /// The file at `path` decoded and converted to `sampleRate`.
    /// - Throws: as `decode(path:)`, and `.decoding` naming the file when its rate cannot be
    ///   converted (libsamplerate goes no further than 256× either way).
    public func decode(path: String, sampleRate: Int) throws(SoundFileError) -> DecodedSound {
        let sound = try decode(path: path)
        do {
            return try SampleRateConverter.convert(sound, to: sampleRate)
        } catch {
            // The converter knows rates, not files: name the file that cannot reach the device's rate.
            throw .decoding(path: path, reason: error.description)
        }
    }

    /// The file at `path` at its own rate, downmixed to one channel (the mean of its channels),
    /// read in chunks: memory follows what the file holds, whatever its header claims.
    /// - Throws: `SoundFileError.unreadable`, `.decoding`, `.tooLarge`, and `.tooLong` once more
    ///   than `maximumDuration` seconds decoded.
    public func decodeMono(path: String, maximumDuration: Double) throws(SoundFileError) -> MonoSound {
        let read = try Self.read(path, maximumDuration: maximumDuration) { path, samples, frames, channels, rate, message, opened in
            hb_sound_file_read_mono(path, maximumDuration, samples, frames, channels, rate, message, opened)
        }
        defer { hb_sound_file_free(read.samples) }
        let sound = MonoSound(sampleRate: read.rate, sourceChannels: read.channels, samples: Array(UnsafeBufferPointer(start: read.samples, count: read.frames)))
        guard sound.duration <= maximumDuration else { throw .tooLong(path: path, limit: maximumDuration) }
        return sound
    }

    /// What one of the C decoders returned: samples to free with `hb_sound_file_free`.
    private struct Decoded {
        var samples: UnsafeMutablePointer<Float>
        var frames: Int
        var channels: Int
        var rate: Int
    }

    /// Calls a C decoder and turns its failure into the matching `SoundFileError`.
    private static func read(
        _ path: String, maximumDuration: Double?,
        _ decoder: (String, UnsafeMutablePointer<UnsafeMutablePointer<Float>?>, UnsafeMutablePointer<UInt>, UnsafeMutablePointer<UInt32>,
                    UnsafeMutablePointer<UInt32>, UnsafeMutablePointer<UnsafePointer<CChar>?>, UnsafeMutablePointer<Int32>) -> Int32
    ) throws(SoundFileError) -> Decoded {
        var samples: UnsafeMutablePointer<Float>?
        var frames: UInt = 0
        var channels: UInt32 = 0
        var rate: UInt32 = 0
        var message: UnsafePointer<CChar>?
        var opened: Int32 = 0
        let error = decoder(path, &samples, &frames, &channels, &rate, &message, &opened)
        let reason = message.map { String(cString: $0) } ?? "error \(error)"
        guard error == 0, let samples else {
            if error == HB_SOUND_FILE_TOO_LONG, let maximumDuration { throw .tooLong(path: path, limit: maximumDuration) }
            if error == HB_SOUND_FILE_TOO_LARGE { throw .tooLarge(path: path) }
            throw opened != 0 ? .decoding(path: path, reason: reason) : .unreadable(path: path, reason: reason)
        }
        return Decoded(samples: samples, frames: Int(frames), channels: Int(channels), rate: Int(rate))
    }
}

extension SoundFileDecoder: SoundDecoder {
    /// Decodes with libsndfile and resamples with libsamplerate.
    public func decode(contentsOf url: URL, sampleRate: Int) throws(SoundFileError) -> DecodedSound {
        try decode(path: url.path, sampleRate: sampleRate)
    }

    /// Decodes with libsndfile in chunks, mixed down as it reads.
    public func decodeMono(contentsOf url: URL, maximumDuration: Double) throws(SoundFileError) -> MonoSound {
        try decodeMono(path: url.path, maximumDuration: maximumDuration)
    }
}
