/// Mixes any number of overlapping voices into one output stream of Int16 frames.
///
/// Frames are counted from the first one rendered; a voice starts at a frame of that count. A
/// voice whose key is already playing cuts it (with a 1 ms fade so the cut does not click) and
/// starts from its own beginning. The sum goes through `AudioLimiter`, so no number of voices
/// clips. While muted, voices run on silently (they are where they would be when unmuted).
public struct AudioMixer: Sendable {
    private struct Playing: Sendable {
        var voice: AudioVoice
        var owner: Int?
        var startFrame: Int
        /// Frame (of the output count) at which a retrigger cut this voice; it fades out from there.
        var cutFrame: Int?

        var endFrame: Int { startFrame + voice.frameCount }
    }

    /// Output channels.
    public let channels: Int
    /// Output frames per second.
    public let sampleRate: Int
    /// Silences the output without stopping voices (Core Haptics' `isMutedForAudio`).
    public var isMuted = false
    /// The limiter on the sum.
    public private(set) var limiter: AudioLimiter
    /// Frames rendered so far: the output frame the next `render` starts at.
    public private(set) var renderedFrames = 0
    private var playing: [Playing] = []
    private let fadeFrames: Int

    /// A mixer for `channels` at `sampleRate`.
    public init(channels: Int, sampleRate: Int) {
        self.channels = max(1, channels)
        self.sampleRate = max(1, sampleRate)
        limiter = AudioLimiter(sampleRate: sampleRate)
        fadeFrames = max(1, sampleRate / 1000)
    }

    /// Voices still playing or waiting to start.
    public var activeVoiceCount: Int { playing.count }

    /// Starts `voice` at output frame `frame` (not before the next frame rendered); `owner` (a
    /// player) lets `removeVoices(owner:)` stop it. A voice with another channel count is refused
    /// (returns false).
    @discardableResult
    public mutating func add(_ voice: AudioVoice, atFrame frame: Int, owner: Int? = nil) -> Bool {
        guard voice.channels == channels else { return false }
        let start = max(frame, renderedFrames)
        if let key = voice.key {
            for index in playing.indices where playing[index].voice.key == key && playing[index].startFrame < start && playing[index].cutFrame == nil {
                playing[index].cutFrame = start
            }
            // A retrigger scheduled earlier for a later time is replaced as well: the newest wins.
            playing.removeAll { $0.voice.key == key && $0.startFrame >= start }
        }
        playing.append(Playing(voice: voice, owner: owner, startFrame: start, cutFrame: nil))
        return true
    }

    /// Drops every voice at once (the engine stopping).
    public mutating func removeAll() {
        playing.removeAll()
    }

    /// Fades out (1 ms) every voice of `owner` from the next frame rendered, as a retrigger cuts.
    public mutating func removeVoices(owner: Int) {
        for index in playing.indices where playing[index].owner == owner && playing[index].cutFrame == nil {
            playing[index].cutFrame = renderedFrames
        }
        playing.removeAll { $0.owner == owner && $0.startFrame >= renderedFrames }
    }

    /// The next `frames` frames, interleaved Int16.
    public mutating func render(frames: Int) -> [Int16] {
        let frames = max(0, frames)
        let ahead = limiter.lookAheadFrames
        let mix = sum(from: renderedFrames, frames: frames + ahead)
        let limited = limiter.process(mix, frames: frames, channels: channels)
        renderedFrames += frames
        playing.removeAll { $0.endFrame <= renderedFrames || ($0.cutFrame.map { $0 + fadeFrames <= renderedFrames } ?? false) }
        guard !isMuted else { return [Int16](repeating: 0, count: frames * channels) }
        // The limiter keeps samples under its ceiling; the clamp only guards the Int16 range.
        return limited.map { Int16((min(1, max(-1, $0)) * 32767).rounded()) }
    }

    /// The plain sum of every voice over `frames` output frames from `first`.
    private func sum(from first: Int, frames: Int) -> [Float] {
        var mix = [Float](repeating: 0, count: frames * channels)
        for item in playing {
            let lower = max(first, item.startFrame)
            var upper = min(first + frames, item.endFrame)
            if let cut = item.cutFrame { upper = min(upper, cut + fadeFrames) }
            guard lower < upper else { continue }
            for frame in lower..<upper {
                var gain: Float = 1
                if let cut = item.cutFrame, frame >= cut { gain = 1 - Float(frame - cut + 1) / Float(fadeFrames + 1) }
                let source = (frame - item.startFrame) * channels
                let target = (frame - first) * channels
                for channel in 0..<channels { mix[target + channel] += item.voice.samples[source + channel] * gain }
            }
        }
        return mix
    }
}
