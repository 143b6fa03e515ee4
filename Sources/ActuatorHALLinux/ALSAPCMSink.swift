import ActuatorHAL
import CDrivers
import SystemPackage

/// An ALSA playback device fed interleaved S16_LE frames, for actuators driven as audio.
///
/// Writes block until the device has room and recover from underruns on their own (counted in
/// `recoveredUnderruns`). Not `Sendable`: one thread writes to a PCM at a time.
public final class ALSAPCMSink: PCMSink {
    /// The ALSA device name (`default`, `hw:1,0`, `plughw:CARD=Headphones`).
    public let name: String
    /// The format in use; `periodFrames` is what the device granted, which may differ from what
    /// was asked for.
    public private(set) var format: PCMFormat
    /// The buffer the device granted (four periods asked for).
    public let bufferFrames: Int
    /// Underruns (and resumes after suspend) recovered during writes since opening.
    public private(set) var recoveredUnderruns = 0
    private let handle: OpaquePointer

    /// Opens `device` for playback at `format`'s rate and channel count exactly, with the period
    /// nearest `format.periodFrames` and a buffer of four periods.
    /// - Throws: `PCMError.open` when the device cannot be opened, `.configure` naming the setting
    ///   the device refused (use a `plughw:` device to get rate and channel conversion).
    public init(device: String, format: PCMFormat) throws(PCMError) {
        guard let rate = UInt32(exactly: format.sampleRate), let channels = UInt32(exactly: format.channels),
              var periodFrames = UInt(exactly: format.periodFrames)
        else { throw .configure(device: device, what: "format \(format)", errno: .invalidArgument) }
        var handle: OpaquePointer?
        var failedSetting: UnsafePointer<CChar>?
        var bufferFrames: UInt = 0
        var reason = [CChar](repeating: 0, count: Self.reasonCapacity)
        let error = hb_pcm_open(device, rate, channels, &periodFrames, &bufferFrames, &handle, &failedSetting, &reason, reason.count)
        guard error == 0, let handle else {
            let errno = error == 0 ? Errno.noMemory : Errno(rawValue: error)
            if let failedSetting {
                throw .configure(device: device, what: String(cString: failedSetting), errno: errno)
            }
            let alsaReason = reason.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw .open(device: device, errno: errno, reason: alsaReason.isEmpty ? nil : alsaReason)
        }
        self.name = device
        self.handle = handle
        self.bufferFrames = Int(bufferFrames)
        self.format = PCMFormat(sampleRate: format.sampleRate, channels: format.channels, periodFrames: Int(periodFrames))
    }

    deinit {
        hb_pcm_close(handle)
    }

    /// Room for alsa-lib's reason for refusing an open: its messages are one line.
    private static let reasonCapacity = 160

    /// Writes every frame, blocking while the buffer is full; returns the frames written.
    /// - Throws: `PCMError.io` with EINVAL when the sample count is not a whole number of frames,
    ///   `.underrun` when an underrun could not be recovered, `.io` for other device errors.
    public func write(_ interleavedSamples: [Int16]) throws(PCMError) -> Int {
        guard interleavedSamples.count % format.channels == 0 else { throw .io(device: name, errno: .invalidArgument) }
        let frames = UInt(interleavedSamples.count / format.channels)
        var written: UInt = 0
        var recoveries: UInt32 = 0
        let handle = self.handle
        let error = interleavedSamples.withUnsafeBufferPointer { samples in
            hb_pcm_write(handle, samples.baseAddress, frames, &written, &recoveries)
        }
        recoveredUnderruns += Int(recoveries)
        guard error == 0 else {
            let errno = Errno(rawValue: error)
            if errno == .brokenPipe { throw .underrun(device: name) }
            throw .io(device: name, errno: errno)
        }
        return Int(written)
    }

    /// Frames written but not yet played (snd_pcm_delay); 0 after an underrun.
    public func queuedFrames() throws(PCMError) -> Int {
        var frames = 0
        let error = hb_pcm_delay(handle, &frames)
        guard error == 0 else { throw .io(device: name, errno: Errno(rawValue: error)) }
        return frames
    }

    /// The delay as of the device's last position update, with that update's CLOCK_MONOTONIC
    /// timestamp (snd_pcm_status, timestamps enabled when the stream was configured): the delay
    /// read between two updates is stale by up to a period, the timestamp says by how much.
    public func queueReading() throws(PCMError) -> PCMQueueReading {
        var frames = 0
        var measured: Int64 = 0
        let error = hb_pcm_delay_at(handle, &frames, &measured)
        guard error == 0 else { throw .io(device: name, errno: Errno(rawValue: error)) }
        return PCMQueueReading(frames: frames, measuredAt: measured > 0 ? MonotonicInstant(nanoseconds: measured) : nil)
    }

    /// Blocks until everything queued has played; the sink then accepts new writes.
    public func drain() throws(PCMError) {
        let error = hb_pcm_drain(handle)
        guard error == 0 else { throw .io(device: name, errno: Errno(rawValue: error)) }
    }

    /// Drops what is queued at once; the sink then accepts new writes.
    public func stop() throws(PCMError) {
        let error = hb_pcm_drop(handle)
        guard error == 0 else { throw .io(device: name, errno: Errno(rawValue: error)) }
    }
}
