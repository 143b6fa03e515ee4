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
        // One frame of slack: libsamplerate rounds the output length either way.
        let capacity = Int((Double(sound.frameCount) * ratio).rounded(.up)) + 1
        var output = [Float](repeating: 0, count: capacity * sound.channels)
        var produced: UInt = 0
        var message: UnsafePointer<CChar>?
        let error = sound.samples.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                hb_resample(input.baseAddress, UInt(sound.frameCount), UInt32(sound.channels), ratio,
                            out.baseAddress, UInt(capacity), &produced, &message)
            }
        }
        guard error == 0 else {
            throw .resampling(from: sound.sampleRate, to: rate, reason: message.map { String(cString: $0) } ?? "error \(error)")
        }
        output.removeLast(output.count - Int(produced) * sound.channels)
        return DecodedSound(sampleRate: rate, channels: sound.channels, samples: output)
    }
}
