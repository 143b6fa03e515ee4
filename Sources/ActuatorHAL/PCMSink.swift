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
    /// Blocks until everything queued has played.
    func drain() throws(PCMError)
    /// Drops what is queued and stops at once.
    func stop() throws(PCMError)
}

/// A fault on a PCM device, carrying errno where ALSA gave one.
public enum PCMError: Error, Sendable, Hashable, CustomStringConvertible {
    case open(device: String, errno: Errno)
    case configure(device: String, what: String, errno: Errno)
    /// An underrun that could not be recovered.
    case underrun(device: String)
    case io(device: String, errno: Errno)

    public var description: String {
        switch self {
        case .open(let device, let errno): return "cannot open PCM device \(device): \(errno)"
        case .configure(let device, let what, let errno): return "PCM device \(device): cannot set \(what): \(errno)"
        case .underrun(let device): return "PCM device \(device): unrecoverable underrun"
        case .io(let device, let errno): return "PCM device \(device): \(errno)"
        }
    }
}
