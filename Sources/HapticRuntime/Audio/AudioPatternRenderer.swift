import ActuatorHAL

/// Renders a pattern's audio events as voices at the output's rate and channel count.
///
/// - AudioContinuous: a tone (see `AudioToneMapping`) lasting `EventDuration`, its volume
///   following the event envelope and AudioVolumeControl (read every `controlInterval` frames and
///   interpolated between, so the last interval fades to the end value instead of clicking), its
///   pitch, brightness and pan following the dynamic parameters and curves (read every
///   `controlInterval` frames; the phase runs on so changes do not click).
/// - AudioCustom: the waveform file, at AudioVolume × AudioVolumeControl, through the event envelope
///   when `EventWaveformUseVolumeEnvelope` is set, panned like a tone (a mono file) or balanced (a
///   stereo one). It lasts the file's length, or `EventDuration` when given — looping the file
///   when `EventWaveformLoopEnabled`, else silent after its end. Its key is the waveform path, so
///   the same sound started again restarts (AudioPitch does not change file playback).
/// Haptic events are left to the actuators.
public struct AudioPatternRenderer: Sendable {
    /// Output frames per second.
    public var sampleRate: Int
    /// Output channels; pan uses the first two.
    public var channels: Int
    /// Frames between reads of pitch, brightness and pan (1 ms at 32 kHz).
    public var controlInterval = 32

    /// A renderer for an output of `channels` at `sampleRate`.
    public init(sampleRate: Int, channels: Int) {
        self.sampleRate = max(1, sampleRate)
        self.channels = max(1, channels)
    }

    /// A pattern's sounds: the voices that could be rendered and why the others could not.
    public struct RenderedSounds: Sendable {
        /// The playable audio events as voices with their start times, in event order.
        public var voices: [TimedVoice]
        /// The events left out (a missing or undecodable waveform), in event order.
        public var problems: [AudioContentError]
    }

    /// Every audio event of `pattern` that can be played, as a voice with its start time; an
    /// AudioCustom event whose waveform is missing or cannot be decoded is left out and listed in
    /// `problems`, so one bad file does not silence the pattern's other sounds.
    public func sounds(for pattern: HapticPattern, from library: SoundLibrary) -> RenderedSounds {
        let evaluator = PatternEvaluator(pattern)
        var rendered = RenderedSounds(voices: [], problems: [])
        for (index, event) in pattern.events.enumerated() {
            switch event.type {
            case .audioContinuous:
                rendered.voices.append(TimedVoice(time: event.time, voice: tone(eventAt: index, evaluator: evaluator)))
            case .audioCustom:
                guard let path = event.waveformPath else {
                    rendered.problems.append(.missingWaveform(eventIndex: index))
                    continue
                }
                do {
                    let sound = try library.sound(forWaveform: path)
                    rendered.voices.append(TimedVoice(time: event.time, voice: waveform(sound, key: path, eventAt: index, evaluator: evaluator)))
                } catch {
                    rendered.problems.append(error)
                }
            case .hapticTransient, .hapticContinuous:
                continue
            }
        }
        return rendered
    }

    /// Every audio event of `pattern` as a voice with its start time, in event order.
    /// - Throws: the first `AudioContentError` when any waveform is missing or cannot be decoded.
    public func voices(for pattern: HapticPattern, sounds: SoundLibrary) throws(AudioContentError) -> [TimedVoice] {
        let rendered = self.sounds(for: pattern, from: sounds)
        if let first = rendered.problems.first { throw first }
        return rendered.voices
    }

    /// The tone of the AudioContinuous event at `index`.
    func tone(eventAt index: Int, evaluator: PatternEvaluator) -> AudioVoice {
        let event = evaluator.pattern.events[index]
        let rate = Double(sampleRate)
        let frames = frameCount(seconds: event.soundingDuration)
        let interval = max(1, controlInterval)
        var samples = [Float](repeating: 0, count: frames * channels)
        var phase = 0.0
        var frequency = 0.0
        var weights: [Double] = []
        var pan = (left: 1.0, right: 1.0)
        var volume = (start: 0.0, end: 0.0)
        var blockLength = interval
        for n in 0..<frames {
            let step = n % interval
            if step == 0 {
                // Everything is read once per control interval; the volume is interpolated across
                // it, so envelopes and curves stay smooth at a fraction of the per-sample cost.
                let time = event.time + Double(n) / rate
                let sounding = evaluator.sounding(eventAt: index, at: time)
                blockLength = min(interval, frames - n)
                let blockEnd = event.time + Double(n + blockLength) / rate
                volume = (sounding?.intensity ?? 0, evaluator.sounding(eventAt: index, at: blockEnd)?.intensity ?? 0)
                frequency = AudioToneMapping.frequency(pitch: event.value(of: .audioPitch) + evaluator.controls.value(of: .audioPitchControl, at: time))
                weights = AudioToneMapping.harmonicWeights(brightness: sounding?.sharpness ?? 0)
                pan = AudioToneMapping.panGains(event.value(of: .audioPan) + evaluator.controls.value(of: .audioPanControl, at: time))
            }
            let level = volume.start + (volume.end - volume.start) * Double(step) / Double(blockLength)
            let value = level * AudioToneMapping.sample(phase: phase, weights: weights, frequency: frequency, nyquist: rate / 2)
            place(value, pan: pan, frame: n, into: &samples)
            phase += 2 * Double.pi * frequency / rate
            if phase >= 2 * Double.pi { phase -= 2 * Double.pi }
        }
        return AudioVoice(key: nil, channels: channels, samples: samples)
    }

    /// The waveform of the AudioCustom event at `index`.
    func waveform(_ sound: DecodedSound, key: String, eventAt index: Int, evaluator: PatternEvaluator) -> AudioVoice {
        let event = evaluator.pattern.events[index]
        let rate = Double(sampleRate)
        let source = sound.frameCount
        let loops = event.waveformLoopEnabled == true
        let frames: Int
        if let given = event.duration, given > 0 {
            frames = loops ? frameCount(seconds: given) : min(source, frameCount(seconds: given))
        } else {
            frames = source
        }
        let envelope = event.waveformUsesVolumeEnvelope == true ? Self.envelope(of: event, controls: evaluator.controls, duration: Double(frames) / rate) : nil
        let pan = AudioToneMapping.panGains(event.value(of: .audioPan) + evaluator.controls.value(of: .audioPanControl, at: event.time))
        let balance = Self.balance(event.value(of: .audioPan) + evaluator.controls.value(of: .audioPanControl, at: event.time))
        var samples = [Float](repeating: 0, count: frames * channels)
        guard source > 0 else { return AudioVoice(key: key, channels: channels, samples: samples) }
        let volume = event.value(of: .audioVolume)
        // The volume control is read at every frame, at times that only grow: from where the
        // previous frame found it (`ControlTimeline.Hint`), not by a search of its curve each time.
        var volumeHint = ControlTimeline.Hint()
        for n in 0..<frames {
            let time = event.time + Double(n) / rate
            let gain = volume * evaluator.controls.value(of: .audioVolumeControl, at: time, hint: &volumeHint)
                * (envelope?.gain(at: Double(n) / rate) ?? 1)
            let base = (n % source) * sound.channels
            if sound.channels == 1 || channels == 1 {
                let mean = (0..<sound.channels).reduce(0.0) { $0 + Double(sound.samples[base + $1]) } / Double(sound.channels)
                place(gain * mean, pan: pan, frame: n, into: &samples)
            } else {
                samples[n * channels] = Float(gain * balance.left * Double(sound.samples[base]))
                samples[n * channels + 1] = Float(gain * balance.right * Double(sound.samples[base + 1]))
            }
        }
        return AudioVoice(key: key, channels: channels, samples: samples)
    }

    /// Writes a mono value to the output frame: panned over the first two channels, or once on a
    /// mono output.
    private func place(_ value: Double, pan: (left: Double, right: Double), frame: Int, into samples: inout [Float]) {
        if channels == 1 {
            samples[frame] = Float(value)
        } else {
            samples[frame * channels] = Float(value * pan.left)
            samples[frame * channels + 1] = Float(value * pan.right)
        }
    }

    private func frameCount(seconds: Double) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return Int((seconds * Double(sampleRate)).rounded())
    }

    /// A stereo file keeps its image: pan attenuates the far side only (1 at the centre).
    private static func balance(_ pan: Double) -> (left: Double, right: Double) {
        let p = pan.isNaN ? 0 : min(1, max(-1, pan))
        return (min(1, 1 - p), min(1, 1 + p))
    }

    /// The envelope of an AudioCustom event that asks for one, over the waveform's length; the
    /// envelope-time controls are read at the event start, as for every other event.
    private static func envelope(of event: HapticEvent, controls: ControlTimeline, duration: Double) -> EventEnvelope {
        func seconds(_ id: EventParameterID, _ control: DynamicParameterID) -> Double {
            min(1, max(0, event.value(of: id) + controls.value(of: control, at: event.time)))
        }
        return EventEnvelope(
            attack: seconds(.attackTime, .audioAttackTimeControl),
            decay: seconds(.decayTime, .audioDecayTimeControl),
            release: seconds(.releaseTime, .audioReleaseTimeControl),
            sustained: event.value(of: .sustained) >= 0.5,
            duration: duration
        )
    }
}
