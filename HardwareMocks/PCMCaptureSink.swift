import ActuatorHAL

/// A PCM playback device that keeps what it plays: a consumer draining the queue at the format's
/// rate on the virtual clock, like a sound card's DMA.
///
/// The model, after ALSA's PCM state machine with a start threshold of one frame:
/// - a write starts playback if stopped; each frame plays `1 / sampleRate` after the one before it;
/// - the queue holds `bufferFrames`; a write into a full queue blocks — by `sleep(until:)` on the
///   virtual clock — until a period's worth of room (or what remains) has played;
/// - if the clock passes the end of the queued audio while running, that is an underrun: it is
///   recorded, and the next write restarts playback at the then current time (as after
///   `snd_pcm_recover`), leaving a gap in play time;
/// - `drain()` sleeps until the last frame has played; `stop()` discards what has not.
///
/// `samples` keeps everything played or still queued, and `playTime(ofFrame:)` says when each
/// frame leaves the device.
///
/// With `positionGranularity: .period` the device reports its position as DMA hardware does (and
/// snd-aloop, in jiffies rather than periods): it moves a whole period at a time, on the device's
/// own clock (a shared or loopback device was running before this stream joined it, so its
/// updates fall at any phase of the writer's schedule), so `queuedFrames()` (snd_pcm_delay) read
/// between two moves still counts frames that have left, and `queueReading()` says when the count
/// was true (ALSA's status timestamp).
///
/// With `sharing: .direct` the stream is a client of ALSA's dshare or dmix plugin, which copies
/// what a write queued into the device's shared buffer only as far as the device's position,
/// rounded down to the start of its period, plus one buffer; the rest waits for the client's next
/// write or drain. A frame whose turn to play comes before it was copied plays as silence (the
/// kernel silences what the device has played), while the client's delay counts it as played.
public final class PCMCaptureSink: PCMSink {
    /// How the reported position moves.
    public enum PositionGranularity: Sendable, Hashable {
        /// Every frame, as an ideal device.
        case frame
        /// A period at a time, the first move `phase` after the sink was made.
        case period(phase: Duration)

        /// Period steps half a period out of phase with a stream started when the sink was made:
        /// the worst case for a delay read just before a step.
        public static func period(halfOutOfPhaseWith format: PCMFormat) -> PositionGranularity {
            .period(phase: format.duration(ofFrames: format.periodFrames / 2))
        }
    }

    /// Whether the stream owns the device or shares it through one of ALSA's direct plugins.
    public enum Sharing: Sendable, Hashable {
        /// The stream owns the device (`hw:`, `plughw:`): a write is on the device at once.
        case exclusive
        /// A dshare or dmix client over a device whose periods begin `periodPhase` after the sink
        /// was made: a write reaches the device only as far as its window (see the type's doc).
        case direct(periodPhase: Duration)
    }

    /// When a stream ran dry and when writing resumed.
    public struct Underrun: Sendable, Hashable {
        /// When the last queued frame finished playing.
        public var audioEnded: MonotonicInstant
        /// When the next write restarted playback; `nil` until it has.
        public var restarted: MonotonicInstant?

        /// An underrun record.
        public init(audioEnded: MonotonicInstant, restarted: MonotonicInstant?) {
            self.audioEnded = audioEnded
            self.restarted = restarted
        }
    }

    /// A run of frames played back to back from `start`.
    private struct Segment {
        var firstFrame: Int
        var start: MonotonicInstant
    }

    /// The device name in errors.
    public let name: String
    /// The stream's rate, channel count and period size.
    public let format: PCMFormat
    /// Frames the device can hold ahead of its output (ALSA's buffer size).
    public let bufferFrames: Int
    /// The clock the consumer plays on; blocking calls sleep on it.
    public let clock: VirtualClock
    /// Interleaved samples, every frame played or queued from `firstCapturedFrame` on, in play
    /// order (a frame that played without reaching the device, as silence).
    public var samples: [Int16] {
        noteUnderrun()
        playUncopiedAsSilence()
        return captured
    }
    /// What was written, less what a stop dropped, from `firstCapturedFrame` on.
    private var captured: [Int16] = []
    /// When set, `samples` keeps only about the newest `captureLimit` frames, letting go of older
    /// ones once they have played: a long run on a simulated sound device (a service on the
    /// simulated board) does not grow with every frame. Nil: every frame is kept, for tests.
    public var captureLimit: Int?
    /// The stream's frame `samples` begins with: the frames before it were let go under
    /// `captureLimit`. Frame numbers (`frameCount`, `playTime(ofFrame:)`) count from the stream's
    /// first frame all the same.
    public private(set) var firstCapturedFrame = 0
    /// Every underrun so far, oldest first.
    public private(set) var underruns: [Underrun] = []
    /// Writes that found the buffer full and had to wait for room: a real-time writer should see
    /// none, since its wait delays whatever else the thread serves.
    public private(set) var writesThatWaited = 0
    /// Whether frames are being consumed (between the first write and a drain, stop or underrun).
    public private(set) var isRunning = false
    /// How `queuedFrames()` and `queueReading()` see the position.
    public let positionGranularity: PositionGranularity
    /// Whether writes reach the device at once or through a shared buffer's window.
    public let sharing: Sharing
    /// Frames written that were copied to the device; always all of them with `.exclusive`.
    public private(set) var framesOnDevice = 0
    /// Frames that played as silence because a shared buffer's window had not reached them.
    public private(set) var framesLostBeforeTheDevice = 0
    /// When the sink was made: the device clock's origin for `.period` position moves.
    private let created: MonotonicInstant
    private var segments: [Segment] = []

    /// A device playing `format`; `bufferFrames` defaults to four periods.
    public init(
        name: String = "sim pcm", format: PCMFormat, bufferFrames: Int? = nil, positionGranularity: PositionGranularity = .frame,
        sharing: Sharing = .exclusive, clock: VirtualClock
    ) throws(PCMError) {
        let buffer = bufferFrames ?? 4 * format.periodFrames
        for (what, value) in [("rate", format.sampleRate), ("channels", format.channels), ("period size", format.periodFrames), ("buffer size", buffer)] where value <= 0 {
            throw PCMError.configure(device: name, what: "\(what) \(value)", errno: .invalidArgument)
        }
        guard buffer >= format.periodFrames else {
            throw PCMError.configure(device: name, what: "buffer size \(buffer) below one period", errno: .invalidArgument)
        }
        self.name = name
        self.format = format
        self.bufferFrames = buffer
        self.positionGranularity = positionGranularity
        self.sharing = sharing
        self.clock = clock
        created = clock.now
    }

    /// Frames captured so far (played or queued), those let go under `captureLimit` included.
    public var frameCount: Int { firstCapturedFrame + captured.count / format.channels }

    /// When frame `index` leaves the device; `nil` past the captured frames.
    public func playTime(ofFrame index: Int) -> MonotonicInstant? {
        guard (0..<frameCount).contains(index) else { return nil }
        return time(ofFrame: index)
    }

    /// Channel `index` of the captured audio from `firstCapturedFrame` on, scaled so full scale is
    /// −1…1 (−32768 maps to −1); empty for a channel the format does not have.
    public func channel(_ index: Int) -> [Double] {
        guard (0..<format.channels).contains(index) else { return [] }
        let samples = self.samples
        return stride(from: index, to: samples.count, by: format.channels).map { Double(samples[$0]) / 32768 }
    }

    /// The error every call fails with from now on, as a USB device's calls do once it is
    /// unplugged (`.io` with ENODEV); nil: working. What was captured stays for inspection.
    public var injectedFailure: PCMError?

    /// Queues whole frames, starting playback if stopped and sleeping on the virtual clock while
    /// the buffer is full; returns the frames written (all of them).
    public func write(_ interleavedSamples: [Int16]) throws(PCMError) -> Int {
        if let injectedFailure { throw injectedFailure }
        guard interleavedSamples.count % format.channels == 0 else {
            // snd_pcm_writei counts whole frames; a partial frame is a caller error.
            throw PCMError.io(device: name, errno: .invalidArgument)
        }
        let frames = interleavedSamples.count / format.channels
        guard frames > 0 else { return 0 }
        var written = 0
        var waitedInThisWrite = false
        while written < frames {
            // Checked on every pass: with a manually driven clock another thread may have moved
            // time past the queued audio while this writer slept.
            noteUnderrun()
            if !isRunning { start() }
            playUncopiedAsSilence()
            let wanted = frames - written
            let room = bufferFrames - queued()
            if room == 0 {
                if !waitedInThisWrite {
                    writesThatWaited += 1
                    waitedInThisWrite = true
                }
                // ALSA wakes a blocked writer once avail_min (a period) frames are free.
                let needed = min(wanted, format.periodFrames)
                clock.sleep(until: time(ofFrame: frameCount - bufferFrames + needed))
                continue
            }
            let chunk = min(room, wanted)
            let first = written * format.channels
            captured += interleavedSamples[first..<(first + chunk * format.channels)]
            written += chunk
            copyToDevice(upTo: windowEnd())
        }
        letGoOfOldFrames()
        return written
    }

    /// Under `captureLimit`, drops the oldest frames that have played once twice the limit are
    /// kept (so the cost is a copy per `captureLimit` frames, not per write), with the runs and
    /// underruns that lie wholly before what is kept: a stream that starts and stops at every
    /// play adds one of each per play.
    private func letGoOfOldFrames() {
        guard let captureLimit, frameCount - firstCapturedFrame > 2 * captureLimit else { return }
        let played = isRunning ? frameCount - queued() : frameCount
        let dropped = min(framesOnDevice, played, frameCount - captureLimit) - firstCapturedFrame
        guard dropped > 0 else { return }
        captured.removeFirst(dropped * format.channels)
        firstCapturedFrame += dropped
        if let first = segments.lastIndex(where: { $0.firstFrame <= firstCapturedFrame }), first > 0 {
            segments.removeFirst(first)
            if let start = segments.first?.start { underruns.removeAll { $0.audioEnded < start } }
        }
    }

    /// Frames not yet played as of the last position update (now, at `.frame` granularity);
    /// 0 when stopped or after an underrun.
    public func queuedFrames() throws(PCMError) -> Int {
        try queueReading().frames
    }

    /// The queue as of the last position update, with its instant.
    public func queueReading() throws(PCMError) -> PCMQueueReading {
        if let injectedFailure { throw injectedFailure }
        noteUnderrun()
        guard isRunning, let segment = segments.last else { return PCMQueueReading(frames: 0, measuredAt: clock.now) }
        switch positionGranularity {
        case .frame:
            return PCMQueueReading(frames: queued(), measuredAt: clock.now)
        case .period(let phase):
            // The last move of the position, on the device's clock, but not before this stream started.
            let update = max(devicePeriodStart(phase: phase), segment.start)
            return PCMQueueReading(frames: frameCount - segment.firstFrame - framesStarted(by: update, in: segment), measuredAt: update)
        }
    }

    /// Sleeps on the virtual clock until the last queued frame has played, then stops.
    public func drain() throws(PCMError) {
        if let injectedFailure { throw injectedFailure }
        noteUnderrun()
        guard isRunning else { return }
        // A direct plugin's drain copies the rest a period at a time, each part ahead of its turn.
        playUncopiedAsSilence()
        copyToDevice(upTo: frameCount)
        clock.sleep(until: time(ofFrame: frameCount))
        isRunning = false
    }

    /// Stops at once; frames not yet played are dropped from `samples`.
    public func stop() throws(PCMError) {
        if let injectedFailure { throw injectedFailure }
        noteUnderrun()
        guard isRunning else { return }
        playUncopiedAsSilence()
        captured.removeLast(queued() * format.channels)
        framesOnDevice = min(framesOnDevice, frameCount)
        isRunning = false
    }

    private func start() {
        let now = clock.now
        segments.append(Segment(firstFrame: frameCount, start: now))
        if let last = underruns.indices.last, underruns[last].restarted == nil {
            underruns[last].restarted = now
        }
        isRunning = true
    }

    /// Records an underrun if the clock has run past the queued audio since the last look.
    private func noteUnderrun() {
        guard isRunning else { return }
        let end = time(ofFrame: frameCount)
        if clock.now > end {
            playUncopiedAsSilence()
            underruns.append(Underrun(audioEnded: end, restarted: nil))
            isRunning = false
        }
    }

    /// Silences the frames that have had their turn to play without having reached the device.
    private func playUncopiedAsSilence() {
        let played = isRunning ? frameCount - queued() : frameCount
        guard played > framesOnDevice else { return }
        let silent = (framesOnDevice - firstCapturedFrame) * format.channels..<(played - firstCapturedFrame) * format.channels
        captured.replaceSubrange(silent, with: repeatElement(0, count: silent.count))
        framesLostBeforeTheDevice += played - framesOnDevice
        framesOnDevice = played
    }

    /// Copies written frames to the device up to frame `end` (what has played stays as it played).
    private func copyToDevice(upTo end: Int) {
        framesOnDevice = max(framesOnDevice, min(frameCount, end))
    }

    /// Where a write's copy to the device stops: everything with `.exclusive`; with `.direct`, one
    /// buffer past the start of the device period now playing (ALSA's `snd_pcm_dshare_sync_area`
    /// and dmix's alike, which leave the period the device is in to the device).
    private func windowEnd() -> Int {
        guard case .direct(let phase) = sharing, let segment = segments.last else { return frameCount }
        let periodStart = devicePeriodStart(phase: phase)
        // The device's position at that instant, in this stream's frames (before the segment
        // began, counted back from its first frame).
        let offset = (periodStart - segment.start).nanoseconds
        let frames = offset >= 0 ? framesStarted(by: periodStart, in: segment) : -format.frames(in: .nanoseconds(-offset))
        return segment.firstFrame + frames + bufferFrames
    }

    /// When the device period playing now began, on the device's clock: its periods begin `phase`
    /// after the sink was made, one period apart (and so before that, counting back).
    private func devicePeriodStart(phase: Duration) -> MonotonicInstant {
        let step = format.duration(ofFrames: format.periodFrames).nanoseconds
        let sinceFirst = (clock.now - (created + phase)).nanoseconds
        let periods = sinceFirst >= 0 ? sinceFirst / step : -((-sinceFirst + step - 1) / step)
        return created + phase + .nanoseconds(periods * step)
    }

    /// Frames of the current segment not yet started as of now.
    private func queued() -> Int {
        guard let segment = segments.last else { return 0 }
        return max(0, frameCount - segment.firstFrame - framesStarted(by: clock.now, in: segment))
    }

    /// Frames of `segment` whose play time is not after `instant`, at most all of it.
    private func framesStarted(by instant: MonotonicInstant, in segment: Segment) -> Int {
        let elapsed = max(0, (instant - segment.start).nanoseconds)
        // Frame j has started once its play time, floor(j·1e9/rate) ns, is not after the instant,
        // so ceil(elapsed·rate/1e9) frames have; split into whole seconds so long virtual runs
        // cannot overflow.
        let rate = Int64(format.sampleRate)
        let (seconds, remainder) = elapsed.quotientAndRemainder(dividingBy: 1_000_000_000)
        let started = seconds * rate + (remainder * rate + 999_999_999) / 1_000_000_000
        return min(Int(started), frameCount - segment.firstFrame)
    }

    /// Play time of frame `index`, which may be one past the last (the end of the audio).
    private func time(ofFrame index: Int) -> MonotonicInstant {
        guard let segment = segments.last(where: { $0.firstFrame <= index }) else { return clock.now }
        let offset = Int64(index - segment.firstFrame) * 1_000_000_000 / Int64(format.sampleRate)
        return segment.start + .nanoseconds(offset)
    }
}
