import ActuatorHAL
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A `HapticEngine`'s sound: one output stream, the sounds its content names, and the renderer
/// that turns a pattern's audio events into voices. Attach it with `HapticEngine.attachAudio(_:)`.
///
/// While sounds play or wait, the engine's timing thread services the stream every period (a
/// control command on the engine's `DeadlineScheduler`; with nothing to play it rests and the
/// stream runs dry), so `AudioScheduler` places sounds on the same clock and timeline as the
/// haptic commands: a player started at instant T plays an audio event at pattern time t so its
/// first sample leaves the device at T + t.
/// - `playsHapticsOnly` plays no sound; `isMutedForAudio` silences it, sounds keeping their places.
/// - A player's cancel, stop or pause fades its sounds out; a restart or loop plays them again
///   from the beginning; a player lasts until its sounds end.
/// - Dynamic parameters and curves in the pattern shape its sounds; those sent while playing
///   (`sendParameters`, `scheduleParameterCurve`) shape the sounds that start after them — a
///   sound already playing keeps the parameters it started with.
/// - Sounds play at normal speed: a player at a `playbackRate` other than 1 plays no sound, and
///   an event already begun at a seek or resume offset is skipped.
public final class EngineAudio {
    /// The device stream and its mixer.
    public let output: AudioScheduler
    /// Decoded sound files by waveform path; replace it to play content from another folder.
    public var sounds: SoundLibrary {
        get { renderLock.withLock { library } }
        set {
            renderLock.withLock {
                library = newValue
                rendered = [:]
                renderOrder = []
            }
        }
    }
    private var library: SoundLibrary
    /// Renders audio events at the output's rate and channels.
    public let renderer: AudioPatternRenderer
    /// Audio events that could not be played (missing or undecodable files), newest last; the
    /// latest `AudioScheduler.maximumReports` are kept.
    public private(set) var problems: [AudioContentError] = []
    var serviceToken: ScheduledToken?
    /// Owner numbers for sounds not started by a player (Piano notes) count down from −1, so they
    /// never meet a player's id.
    private var lastOwner = 0
    /// Voices of recently played patterns: a piano key or a looping player plays the same
    /// pattern again and again, and a pattern made into a player is rendered before it starts.
    private var rendered: [HapticPattern: AudioPatternRenderer.RenderedSounds] = [:]
    private var renderOrder: [HapticPattern] = []
    /// Guards the library and the rendered voices: `prerender` runs on the application's thread
    /// outside the engine's lock, so the timing thread never waits for a long render.
    private let renderLock = Lock()
    /// Patterns whose voices are kept.
    static let renderCacheSize = 32

    /// Sound through `output`, reading waveforms from `sounds`.
    public init(output: AudioScheduler, sounds: SoundLibrary) {
        self.output = output
        library = sounds
        renderer = AudioPatternRenderer(sampleRate: output.sink.format.sampleRate, channels: output.sink.format.channels)
    }

    /// Schedules the voices of `pattern` from pattern time `offset`, which plays at `origin`.
    func schedule(_ pattern: HapticPattern, from offset: Double, at origin: MonotonicInstant, owner: Int) {
        output.cancel(owner: owner)
        scheduleVoices(of: pattern, from: offset, at: origin, owner: owner)
    }

    /// After new dynamic parameters from pattern time `offset` (playing at `origin`): the sounds
    /// starting from then on are rendered again with them; sounds already playing keep theirs.
    func replan(_ pattern: HapticPattern, from offset: Double, at origin: MonotonicInstant, owner: Int) {
        output.cancelPending(owner: owner, from: origin)
        // Sounds due before the end of the audio already written were placed with the old values.
        let placed = output.writtenUntil.map { max(0, ($0 - origin).secondsValue) } ?? 0
        scheduleVoices(of: pattern, from: offset, at: origin, owner: owner, skippingFirst: placed)
    }

    /// Schedules the sounds that can play; each that cannot is recorded in `problems`.
    private func scheduleVoices(of pattern: HapticPattern, from offset: Double, at origin: MonotonicInstant, owner: Int, skippingFirst skipped: Double = 0) {
        let sounds = sounds(for: pattern)
        sounds.problems.forEach(record)
        let voices = sounds.voices
            .filter { $0.time >= offset + skipped }
            .map { TimedVoice(time: $0.time - offset, voice: $0.voice) }
        output.schedule(voices, startingAt: origin, owner: owner)
    }

    private func record(_ problem: AudioContentError) {
        problems.append(problem)
        if problems.count > AudioScheduler.maximumReports { problems.removeFirst() }
    }

    /// When the last of `pattern`'s sounds ends, in pattern seconds (an AudioCustom event without
    /// `EventDuration` lasts its decoded file; one that cannot be decoded counts as zero here and
    /// is reported when played).
    func soundEnd(of pattern: HapticPattern) -> Double {
        pattern.events.filter { !$0.type.isHaptic }.map { event in
            if let given = event.duration, given > 0 { return event.time + given }
            guard event.type == .audioCustom, let path = event.waveformPath, let sound = decodedSound(path) else { return event.time }
            return event.time + sound.duration
        }.max() ?? 0
    }

    /// Renders `pattern`'s sounds ahead of playing it (`HapticEngine.makePlayer` calls this
    /// before taking the engine's lock); a failure is left for the start to report.
    func prerender(_ pattern: HapticPattern) {
        _ = sounds(for: pattern)
    }

    /// The sounds of `pattern`, rendered once while it stays among the recent patterns.
    private func sounds(for pattern: HapticPattern) -> AudioPatternRenderer.RenderedSounds {
        renderLock.lock()
        defer { renderLock.unlock() }
        if let cached = rendered[pattern] { return cached }
        let sounds = renderer.sounds(for: pattern, from: library)
        rendered[pattern] = sounds
        renderOrder.append(pattern)
        if renderOrder.count > Self.renderCacheSize {
            rendered[renderOrder.removeFirst()] = nil
        }
        return sounds
    }

    /// The decoded sound `path` names, or nil when it cannot be decoded.
    private func decodedSound(_ path: String) -> DecodedSound? {
        renderLock.lock()
        defer { renderLock.unlock() }
        return try? library.sound(forWaveform: path)
    }

    /// A pattern of one AudioCustom event at 0 naming `path`.
    private static func pattern(playing path: String) -> HapticPattern {
        HapticPattern(events: [HapticEvent(type: .audioCustom, time: 0, waveformPath: path)])
    }

    /// A fresh owner number for sounds scheduled outside players.
    func makeOwner() -> Int {
        lastOwner -= 1
        return lastOwner
    }

    /// Schedules `sound` to start at `instant`; returns its length in seconds, or nil (recorded in
    /// `problems`) when it cannot be played. A `.url` sound is read where the application put it.
    func scheduleSound(_ sound: Note.Sound, at instant: MonotonicInstant, owner: Int) -> Double? {
        let sounds: AudioPatternRenderer.RenderedSounds
        if case .url(let url) = sound {
            let folder = SoundLibrary(decoder: library.decoder, sampleRate: library.sampleRate, folder: url.deletingLastPathComponent())
            sounds = renderer.sounds(for: Self.pattern(playing: url.lastPathComponent), from: folder)
        } else {
            sounds = self.sounds(for: Self.pattern(playing: sound.waveformPath))
        }
        if let problem = sounds.problems.first {
            record(problem)
            return nil
        }
        output.schedule(sounds.voices, startingAt: instant, owner: owner)
        return sounds.voices.map { Double($0.voice.frameCount) / Double(renderer.sampleRate) }.max() ?? 0
    }
}
