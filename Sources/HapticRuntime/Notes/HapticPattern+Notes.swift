extension HapticPattern {
    /// Builds the pattern a note list plays, with Piano's timing: every note starts at the current
    /// time; `.wait(s)` moves the time on by s; `.waitUntilFinished` moves it to the end of the
    /// previous note (its duration in `NoteMapping.table`; a sound counts as finished at once, as
    /// its file is not read here). Each haptic note's events carry a `ROMCue` with its ROM effects,
    /// and its first transient is padded to the note's duration so the pattern lasts as long as
    /// the notes do.
    public init(notes: [Note]) {
        var events: [HapticEvent] = []
        var now = 0.0
        var previousEnd = 0.0
        var group = 0
        for note in notes {
            switch note {
            case .wait(let seconds):
                now += seconds.isFinite ? max(0, seconds) : 0
            case .waitUntilFinished:
                now = max(now, previousEnd)
            case .sound(let sound):
                events.append(HapticEvent(type: .audioCustom, time: now, waveformPath: sound.waveformPath))
                previousEnd = now
            case .hapticFeedback, .tapticEngine, .vibration:
                guard let mapping = NoteMapping.mapping(for: note) else { continue }
                let cue = ROMCue(group: group, lraSteps: mapping.lraSteps, ermSteps: mapping.ermSteps, duration: mapping.duration)
                let firstTransient = mapping.events.firstIndex { $0.type == .hapticTransient }
                for (index, template) in mapping.events.enumerated() {
                    var event = template
                    event.time += now
                    event.romCue = cue
                    if index == firstTransient {
                        event.duration = mapping.duration - template.time
                    }
                    events.append(event)
                }
                group += 1
                previousEnd = now + mapping.duration
            }
        }
        self.init(events: events)
    }
}

extension HapticPattern {
    /// `notes` with their events' intensities scaled by `intensity` (0…1), as UIKit's
    /// `impactOccurred(intensity:)` does. ROM effects come in fixed strengths: scaled notes play
    /// their events instead.
    public init(notes: [Note], intensity: Double) {
        self.init(notes: notes)
        let scale = intensity.isFinite ? min(1, max(0, intensity)) : 1
        guard scale < 1 else { return }
        for index in events.indices {
            events[index].romCue = nil
            events[index].parameters = events[index].parameters.map { parameter in
                parameter.id == .hapticIntensity ? EventParameter(.hapticIntensity, parameter.value * scale) : parameter
            }
        }
    }
}
