/// A sound reduced to one channel for analysis: the mean of the source's channels.
public struct MonoSound: Sendable, Hashable {
    /// Frames per second.
    public var sampleRate: Int
    /// How many channels the source had before the downmix.
    public var sourceChannels: Int
    /// One sample per frame, nominally −1…1.
    public var samples: [Float]

    /// A mono sound of `samples` at `sampleRate`, downmixed from `sourceChannels` channels.
    public init(sampleRate: Int, sourceChannels: Int = 1, samples: [Float]) {
        self.sampleRate = sampleRate
        self.sourceChannels = sourceChannels
        self.samples = samples
    }

    /// Length in seconds.
    public var duration: Double { sampleRate > 0 ? Double(samples.count) / Double(sampleRate) : 0 }
}
