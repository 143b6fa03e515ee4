import ActuatorHAL

/// Keeps one PCM device fed from an `AudioMixer` and starts each sound so its first sample leaves
/// the device at its deadline.
///
/// Call `service()` at least once per period (the engine's timing thread does). Each call tops the
/// device up to `targetQueuedFrames` past its last reported position, in blocks of at most a
/// period. The next frame written leaves the device at the reading's instant + queued frames /
/// rate (`queueReading` is ALSA's timestamped snd_pcm_delay), so a sound due at deadline D starts
/// round((D − that time) × rate) frames into the block — placement is exact to
/// one frame (21 µs at 48 kHz). A sound whose deadline has already passed starts at once and its
/// report shows the lateness. The stream is written continuously (silence when nothing sounds),
/// which keeps the latency fixed while sounds play; a queue found empty while streaming is an
/// underrun — counted, and the next write restarts the stream with placement recomputed from the
/// delay. With nothing to play the owner may stop servicing after `pauseStreaming()`; the output
/// is idle only once the last sound's final frame has left the device, because a shared device
/// (ALSA's dshare or dmix, a Pi's default) copies a write to the device only as far as one buffer
/// past the device's current period, and the rest only at the next write: a stream that stopped
/// writing right after its last sound would play the end of that sound as silence.
public final class AudioScheduler {
    private struct Pending {
        var deadline: MonotonicInstant
        var voice: AudioVoice
        var owner: Int?
    }

    /// The device.
    public let sink: any PCMSink
    /// The clock deadlines are on.
    public let clock: any MonotonicClock
    /// Frames kept queued past the device's position as of its latest reading: the buffer less
    /// one period, or less when asked for.
    public let targetQueuedFrames: Int
    /// The mix of every sound.
    public private(set) var mixer: AudioMixer
    /// Onsets of the sounds placed most recently (at most `maximumReports`), oldest first.
    public private(set) var onsets: [AudioOnsetReport] = []
    /// How many onset reports are kept: a long-running engine (a piano played for hours) must not
    /// grow without bound.
    public static let maximumReports = 1024
    /// Underruns seen (the device queue found empty while streaming).
    public private(set) var underruns = 0
    /// Where the audio written so far ends: sounds due before it are placed (or missed) already.
    public private(set) var writtenUntil: MonotonicInstant?
    private var pending: [Pending] = []
    private var isStreaming = false
    /// The frame after the last one written while a sound played, until the device has played it.
    private var soundEndFrame: Int?
    /// Frames written since the stream started: the mixer's frame count at the device.
    private var writtenFrames: Int { mixer.renderedFrames }

    /// A scheduler writing to `sink`, keeping `targetQueuedFrames` queued (at most, and by default,
    /// the buffer less one period). A shared device (dshare, dmix: a Pi's default) copies a write
    /// into its buffer only as far as one buffer past the start of the period it plays and leaves
    /// the rest for the next write; if that write comes late, the rest has had its turn before it
    /// was copied and plays as silence while the delay counts it as played (the kernel lane once
    /// captured a sound with its first 49 frames silent that way, and no underrun). The position
    /// the reading gives may lie anywhere in that period, so a queue of at most the buffer less a
    /// period past it is always on the device at once: a service late enough to lose audio then
    /// finds the queue empty, an underrun that is counted and placed afresh. Each service may come
    /// that much late before the stream runs dry. A deeper queue costs no precision (sounds are
    /// placed from the device delay), only the time before a sound scheduled for "now" can start.
    public init(sink: any PCMSink, clock: any MonotonicClock, targetQueuedFrames: Int? = nil) {
        self.sink = sink
        self.clock = clock
        let deepest = max(1, sink.bufferFrames - sink.format.periodFrames)
        self.targetQueuedFrames = max(1, min(targetQueuedFrames ?? deepest, deepest))
        mixer = AudioMixer(channels: sink.format.channels, sampleRate: sink.format.sampleRate)
    }

    /// Silences the output; sounds keep their places (`isMutedForAudio`).
    public var isMuted: Bool {
        get { mixer.isMuted }
        set { mixer.isMuted = newValue }
    }

    /// No sound waits or plays, and the last one's final frame has left the device (as of the
    /// latest `service`, which writes silence behind it until then).
    public var isIdle: Bool { pending.isEmpty && mixer.activeVoiceCount == 0 && soundEndFrame == nil }

    /// Plays `voice` so its first sample leaves the device at `deadline`; `owner` (a player) lets
    /// `cancel(owner:)` stop it.
    public func schedule(_ voice: AudioVoice, at deadline: MonotonicInstant, owner: Int? = nil) {
        pending.append(Pending(deadline: deadline, voice: voice, owner: owner))
        pending.sort { $0.deadline < $1.deadline }
    }

    /// Plays a pattern's voices with its time 0 at `origin`.
    public func schedule(_ voices: [TimedVoice], startingAt origin: MonotonicInstant, owner: Int? = nil) {
        for timed in voices {
            schedule(timed.voice, at: origin + .nanoseconds(Int64((max(0, timed.time) * 1e9).rounded())), owner: owner)
        }
    }

    /// Drops the sounds of `owner` due at or after `deadline` that are still waiting to be placed.
    public func cancelPending(owner: Int, from deadline: MonotonicInstant) {
        pending.removeAll { $0.owner == owner && $0.deadline >= deadline }
    }

    /// Drops the sounds of `owner` that wait and fades out those playing.
    public func cancel(owner: Int) {
        pending.removeAll { $0.owner == owner }
        mixer.removeVoices(owner: owner)
    }

    /// Drops every sound, playing or waiting; the stream keeps running silent.
    public func cancelAll() {
        pending.removeAll()
        mixer.removeAll()
    }

    /// Lets the stream run dry without counting it as an underrun: called when nothing is left to
    /// play, so an idle output costs no writes. The next `service` starts the stream again, with
    /// placement measured afresh from the device delay.
    public func pauseStreaming() {
        isStreaming = false
    }

    /// Stops the stream at once, dropping what is queued and every sound.
    public func stop() throws(PCMError) {
        cancelAll()
        isStreaming = false
        writtenUntil = nil
        soundEndFrame = nil
        try sink.stop()
    }

    /// Tops the device up to `targetQueuedFrames` past its position as of its latest reading,
    /// placing sounds that fall in the blocks written. Returns the frames written.
    ///
    /// Placement starts from the device's queue as of its last position update, not as of now:
    /// a device's position moves in steps (a period on DMA hardware, 4 ms on snd-aloop), so a
    /// delay read between two updates still counts frames that have left, and a sound placed from
    /// it would start up to a step early.
    @discardableResult
    public func service() throws(PCMError) -> Int {
        let format = sink.format
        let reading = try sink.queueReading()
        let now = clock.now
        if isStreaming && reading.frames == 0 { underruns += 1 }
        if let end = soundEndFrame, writtenFrames - reading.frames >= end { soundEndFrame = nil }
        // When the next frame written leaves the device: once what was queued at the reading has played.
        var nextFrameLeaves = (reading.measuredAt ?? now) + format.duration(ofFrames: reading.frames)
        remeasureOnsets(firstQueuedLeaves: nextFrameLeaves - format.duration(ofFrames: reading.frames), queued: reading.frames)
        // Counted from the position the reading was taken at, not from now (see `init`).
        var queued = reading.frames
        var written = 0
        while queued < targetQueuedFrames {
            let frames = min(format.periodFrames, targetQueuedFrames - queued)
            placeDue(blockStart: nextFrameLeaves, frames: frames)
            let sounds = mixer.activeVoiceCount > 0
            _ = try sink.write(mixer.render(frames: frames))
            if sounds { soundEndFrame = writtenFrames }
            nextFrameLeaves = nextFrameLeaves + format.duration(ofFrames: frames)
            writtenUntil = nextFrameLeaves
            isStreaming = true
            queued += frames
            written += frames
        }
        return written
    }

    /// Moves pending sounds due before the end of the block starting at `blockStart` into the mixer.
    private func placeDue(blockStart: MonotonicInstant, frames: Int) {
        let rate = Int64(sink.format.sampleRate)
        let blockFirstFrame = writtenFrames
        while let next = pending.first {
            let nanoseconds = (next.deadline - blockStart).nanoseconds
            // Round to the nearest frame; split so long waits cannot overflow.
            let (seconds, rest) = nanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
            let offset = Int(seconds * rate + (rest * rate + (rest >= 0 ? 500_000_000 : -500_000_000)) / 1_000_000_000)
            guard offset < frames else { break }
            pending.removeFirst()
            let placed = max(0, offset)
            mixer.add(next.voice, atFrame: blockFirstFrame + placed, owner: next.owner)
            onsets.append(AudioOnsetReport(deadline: next.deadline, onset: blockStart + sink.format.duration(ofFrames: placed), frame: blockFirstFrame + placed))
            if onsets.count > Self.maximumReports { onsets.removeFirst(onsets.count - Self.maximumReports) }
        }
    }

    /// Re-reads when each recent onset's frame will play from the current reading (the first
    /// frame still queued leaves at `firstQueuedLeaves`), so the reports follow the device rather
    /// than the estimate made when the frame was written.
    private func remeasureOnsets(firstQueuedLeaves: MonotonicInstant, queued: Int) {
        let firstQueued = writtenFrames - queued
        for index in onsets.indices.reversed() {
            let frame = onsets[index].frame
            guard frame >= firstQueued else { break }
            onsets[index].onset = firstQueuedLeaves + sink.format.duration(ofFrames: frame - firstQueued)
        }
    }
}
