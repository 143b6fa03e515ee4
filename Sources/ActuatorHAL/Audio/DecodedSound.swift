/// A decoded sound: interleaved float samples in −1…1 at a sample rate.
public struct DecodedSound: Sendable, Hashable {
    /// Frames per second.
    public var sampleRate: Int
    /// Samples per frame.
    public var channels: Int
    /// Interleaved samples, `channels` per frame.
    public var samples: [Float]

    /// A sound of `samples` (interleaved, `channels` per frame) at `sampleRate`.
    public init(sampleRate: Int, channels: Int, samples: [Float]) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.samples = samples
    }

    /// Whole frames held.
    public var frameCount: Int { channels > 0 ? samples.count / channels : 0 }

    /// Length in seconds.
    public var duration: Double { sampleRate > 0 ? Double(frameCount) / Double(sampleRate) : 0 }

    /// One channel's samples; empty for a channel the sound does not have.
    public func channel(_ index: Int) -> [Float] {
        guard (0..<channels).contains(index) else { return [] }
        return stride(from: index, to: samples.count, by: channels).map { samples[$0] }
    }
}
