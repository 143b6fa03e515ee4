import SystemPackage

/// The shape of an interleaved signed 16-bit PCM stream.
public struct PCMFormat: Sendable, Hashable {
    public var sampleRate: Int
    public var channels: Int
    /// Frames per period: the unit the device consumes; smaller means lower latency.
    public var periodFrames: Int

    public init(sampleRate: Int, channels: Int, periodFrames: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.periodFrames = periodFrames
    }
}

/// Somewhere interleaved S16 frames go: an ALSA playback device, or a capture sink in tests.
public protocol PCMSink: AnyObject {
    var name: String { get }
    var format: PCMFormat { get }
    /// Frames the device holds ahead of its output (ALSA's buffer size): at most this much can be
    /// queued before a write waits.
    var bufferFrames: Int { get }
    /// Writes interleaved samples (`channels` per frame); returns frames accepted.
    func write(_ interleavedSamples: [Int16]) throws(PCMError) -> Int
    /// Frames queued ahead of the device's output (ALSA's `snd_pcm_delay`): a sample written now
    /// leaves the device after this many frames.
    func queuedFrames() throws(PCMError) -> Int
    /// The queue with the instant its count was true. A device's position moves in steps (a
    /// period on DMA hardware, a 4 ms jiffy on snd-aloop), so `queuedFrames` read between two
    /// steps counts frames that have already left — up to a step's worth: placing a sound from it
    /// puts the sound up to a step early. The default has no instant (`queuedFrames` as of now).
    func queueReading() throws(PCMError) -> PCMQueueReading
    /// Blocks until everything queued has played.
    func drain() throws(PCMError)
    /// Drops what is queued and stops at once.
    func stop() throws(PCMError)
}

extension PCMSink {
    /// `queuedFrames()` with no instant: taken to be true now.
    public func queueReading() throws(PCMError) -> PCMQueueReading {
        PCMQueueReading(frames: try queuedFrames(), measuredAt: nil)
    }
}

/// Frames queued on a PCM device, and when that was so.
public struct PCMQueueReading: Sendable, Hashable {
    /// Frames queued ahead of the output at `measuredAt`.
    public var frames: Int
    /// When the device's position was last updated (ALSA's status timestamp on CLOCK_MONOTONIC);
    /// nil when the device does not say, and the count is taken to be true when read.
    public var measuredAt: MonotonicInstant?

    public init(frames: Int, measuredAt: MonotonicInstant?) {
        self.frames = frames
        self.measuredAt = measuredAt
    }
}

/// A fault on a PCM device, carrying errno where ALSA gave one.
public enum PCMError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The device could not be opened; `reason` is ALSA's own, where it gave one (an ALSA dshare
    /// channel already in use, a slave device that refused the configuration).
    case open(device: String, errno: Errno, reason: String? = nil)
    case configure(device: String, what: String, errno: Errno)
    /// An underrun that could not be recovered.
    case underrun(device: String)
    case io(device: String, errno: Errno)

    public var description: String {
        switch self {
        case .open(let device, let errno, let reason):
            return "cannot open PCM device \(device): \(errno)" + (reason.map { " (ALSA: \($0))" } ?? "")
        case .configure(let device, let what, let errno): return "PCM device \(device): cannot set \(what): \(errno)"
        case .underrun(let device): return "PCM device \(device): unrecoverable underrun"
        case .io(let device, let errno): return "PCM device \(device): \(errno)"
        }
    }
}
