import ActuatorHAL
import CDrivers

/// Sample-rate conversion with libsamplerate's best band-limited sinc converter (SRC_SINC_BEST_QUALITY):
/// alias-free to within its 97 dB stop band, so a 44.1 kHz file plays on a 48 kHz device without
/// audible artefacts.
public enum SampleRateConverter {
    /// `sound` at `rate`; returned unchanged when it is already at that rate.
    /// - Throws: `SoundFileError.resampling` for a rate ≤ 0 or a ratio libsamplerate refuses (beyond 256×).
    public static func convert(_ sound: DecodedSound, to rate: Int) throws(SoundFileError) -> DecodedSound {
        guard rate > 0, sound.sampleRate > 0, sound.channels > 0 else {
            throw .resampling(from: sound.sampleRate, to: rate, reason: "sample rates and channel count must be positive")
        }
        guard rate != sound.sampleRate, sound.frameCount > 0 else {
            return DecodedSound(sampleRate: rate, channels: sound.channels, samples: sound.samples)
        }
        let ratio = Double(rate) / Double(sound.sampleRate)
        // Checked before the output is allocated: a sound at 1 Hz asked for at 48 kHz would first
        // have zeroed 48,000 floats per frame for libsamplerate to refuse.
        guard hb_resample_ratio_is_valid(ratio) != 0 else {
            throw .resampling(from: sound.sampleRate, to: rate, reason: "libsamplerate converts by at most 256× either way, not \(Self.describe(ratio))")
        }
        // One frame of slack: libsamplerate rounds the output length either way.
        let capacity = Int((Double(sound.frameCount) * ratio).rounded(.up)) + 1
        var failure: (code: Int32, message: UnsafePointer<CChar>?)?
        // libsamplerate writes the frames it produces; the rest of the room is never read.
        let output = [Float](unsafeUninitializedCapacity: capacity * sound.channels) { out, initialized in
            var produced: UInt = 0
            var message: UnsafePointer<CChar>?
            let error = sound.samples.withUnsafeBufferPointer { input in
                hb_resample(input.baseAddress, UInt(sound.frameCount), UInt32(sound.channels), ratio,
                            out.baseAddress, UInt(capacity), &produced, &message)
            }
            initialized = error == 0 ? Int(produced) * sound.channels : 0
            if error != 0 { failure = (error, message) }
        }
        if let failure {
            throw .resampling(from: sound.sampleRate, to: rate, reason: failure.message.map { String(cString: $0) } ?? "error \(failure.code)")
        }
        return DecodedSound(sampleRate: rate, channels: sound.channels, samples: output)
    }

    /// `ratio` as "480×" or "1/480×", the way the limit is said.
    private static func describe(_ ratio: Double) -> String {
        let factor = ((ratio >= 1 ? ratio : 1 / ratio) * 10).rounded() / 10
        let shown = factor.rounded() == factor ? "\(Int(factor))" : "\(factor)"
        return ratio >= 1 ? "\(shown)×" : "1/\(shown)×"
    }
}
