#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writes canonical 16-bit PCM WAV files, so tests can hand the real decoder a file whose every
/// sample they know.
public enum WAVFile {
    /// The bytes of a RIFF/WAVE file holding `samples` (interleaved, `channels` per frame) at
    /// `sampleRate`.
    public static func data(samples: [Int16], channels: Int, sampleRate: Int) -> Data {
        var data = Data()
        func append(_ text: String) { data.append(contentsOf: Array(text.utf8)) }
        func append32(_ value: Int) { withUnsafeBytes(of: UInt32(truncatingIfNeeded: value).littleEndian) { data.append(contentsOf: $0) } }
        func append16(_ value: Int) { withUnsafeBytes(of: UInt16(truncatingIfNeeded: value).littleEndian) { data.append(contentsOf: $0) } }
        let payload = samples.count * 2
        append("RIFF")
        append32(36 + payload)
        append("WAVE")
        append("fmt ")
        append32(16)
        append16(1) // PCM
        append16(channels)
        append32(sampleRate)
        append32(sampleRate * channels * 2)
        append16(channels * 2)
        append16(16)
        append("data")
        append32(payload)
        for sample in samples { append16(Int(UInt16(bitPattern: sample))) }
        return data
    }

    /// Writes such a file at `url`.
    public static func write(samples: [Int16], channels: Int, sampleRate: Int, to url: URL) throws {
        try data(samples: samples, channels: channels, sampleRate: sampleRate).write(to: url)
    }
}
