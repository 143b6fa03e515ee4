import ActuatorHAL

/// How one haptic note plays: its name in notes files, the DRV2605 ROM effects for the LRA and
/// ERM libraries, the events used everywhere else, and how long it lasts.
public struct NoteMapping: Sendable, Hashable {
    /// The note this row is for.
    public var note: Note
    /// The note's name in notes files (`impact.heavy`).
    public var name: String
    /// Sequencer steps with the LRA library.
    public var lraSteps: [SequencerStep]
    /// Sequencer steps with the ERM libraries.
    public var ermSteps: [SequencerStep]
    /// Events relative to the note's start, for actuators without a ROM library.
    public var events: [HapticEvent]
    /// How long the note lasts: what `.waitUntilFinished` waits for.
    public var duration: Double
    /// Why these effects and events: one line for the README.
    public var rationale: String
}

extension NoteMapping {
    /// The note table. Effect ids and names are from the DRV2605 "Waveform Library Effects List"
    /// (same ids in every library). ERM motors spin up slowly, so where the LRA entry uses a very
    /// short effect (a tick, a 30 % click) the ERM entry uses a longer, softer one that an ERM can
    /// still render. Durations of the feedback notes are Piano's fixed ones (success 0.2 s, warning
    /// 0.25 s, failure 0.5 s, impact 0.1 s, selection 0.05 s); Piano publishes none for Taptic
    /// Engine and vibration notes, so those are the lengths of the events below.
    public static let table: [NoteMapping] = [
        NoteMapping(
            note: .hapticFeedback(.impact(.light)), name: "impact.light",
            lraSteps: [.effect(3)], ermSteps: [.effect(8)],
            events: [transient(0, 0.4, 0.4)], duration: 0.1,
            rationale: "Strong Click 30 % (LRA), Soft Bump 60 % (ERM)"
        ),
        NoteMapping(
            note: .hapticFeedback(.impact(.medium)), name: "impact.medium",
            lraSteps: [.effect(2)], ermSteps: [.effect(2)],
            events: [transient(0, 0.7, 0.5)], duration: 0.1,
            rationale: "Strong Click 60 %"
        ),
        NoteMapping(
            note: .hapticFeedback(.impact(.heavy)), name: "impact.heavy",
            lraSteps: [.effect(1)], ermSteps: [.effect(1)],
            events: [transient(0, 1.0, 0.6)], duration: 0.1,
            rationale: "Strong Click 100 %"
        ),
        NoteMapping(
            note: .hapticFeedback(.impact(.soft)), name: "impact.soft",
            lraSteps: [.effect(7)], ermSteps: [.effect(7)],
            events: [transient(0, 0.7, 0.1)], duration: 0.1,
            rationale: "Soft Bump 100 %: a compliant, rounded collision"
        ),
        NoteMapping(
            note: .hapticFeedback(.impact(.rigid)), name: "impact.rigid",
            lraSteps: [.effect(4)], ermSteps: [.effect(4)],
            events: [transient(0, 0.9, 1.0)], duration: 0.1,
            rationale: "Sharp Click 100 %: a hard, small collision"
        ),
        NoteMapping(
            note: .hapticFeedback(.notification(.success)), name: "notification.success",
            lraSteps: [.effect(2), .wait(.milliseconds(80)), .effect(1)],
            ermSteps: [.effect(2), .wait(.milliseconds(80)), .effect(1)],
            events: [transient(0, 0.6, 0.5), transient(0.1, 1.0, 0.7)], duration: 0.2,
            rationale: "a medium then a strong click 0.1 s apart"
        ),
        NoteMapping(
            note: .hapticFeedback(.notification(.warning)), name: "notification.warning",
            lraSteps: [.effect(1), .wait(.milliseconds(130)), .effect(2)],
            ermSteps: [.effect(1), .wait(.milliseconds(130)), .effect(2)],
            events: [transient(0, 1.0, 0.6), transient(0.15, 0.6, 0.4)], duration: 0.25,
            rationale: "a strong then a medium click 0.15 s apart"
        ),
        NoteMapping(
            note: .hapticFeedback(.notification(.failure)), name: "notification.failure",
            lraSteps: [.effect(1), .wait(.milliseconds(90)), .effect(1), .wait(.milliseconds(90)), .effect(2), .wait(.milliseconds(90)), .effect(3)],
            ermSteps: [.effect(1), .wait(.milliseconds(90)), .effect(1), .wait(.milliseconds(90)), .effect(2), .wait(.milliseconds(90)), .effect(3)],
            events: [transient(0, 1.0, 0.6), transient(0.11, 1.0, 0.6), transient(0.22, 0.6, 0.5), transient(0.33, 0.3, 0.4)],
            duration: 0.5,
            rationale: "four clicks 0.11 s apart, fading"
        ),
        NoteMapping(
            note: .hapticFeedback(.selection), name: "selection",
            lraSteps: [.effect(24)], ermSteps: [.effect(21)],
            events: [transient(0, 0.5, 1.0)], duration: 0.05,
            rationale: "Sharp Tick 1 (LRA), Medium Click 1 (ERM)"
        ),
        NoteMapping(
            note: .tapticEngine(.peek), name: "taptic.peek",
            lraSteps: [.effect(8)], ermSteps: [.effect(8)],
            events: [transient(0, 0.6, 0.2)], duration: 0.1,
            rationale: "Soft Bump 60 %: one weak boom"
        ),
        NoteMapping(
            note: .tapticEngine(.pop), name: "taptic.pop",
            lraSteps: [.effect(7)], ermSteps: [.effect(7)],
            events: [transient(0, 1.0, 0.2)], duration: 0.1,
            rationale: "Soft Bump 100 %: one strong boom"
        ),
        NoteMapping(
            note: .tapticEngine(.cancelled), name: "taptic.cancelled",
            lraSteps: [.effect(8), .wait(.milliseconds(100)), .effect(8), .wait(.milliseconds(100)), .effect(8)],
            ermSteps: [.effect(8), .wait(.milliseconds(100)), .effect(8), .wait(.milliseconds(100)), .effect(8)],
            events: [transient(0, 0.6, 0.2), transient(0.12, 0.6, 0.2), transient(0.24, 0.6, 0.2)], duration: 0.4,
            rationale: "three weak booms 0.12 s apart"
        ),
        NoteMapping(
            note: .tapticEngine(.tryAgain), name: "taptic.tryAgain",
            lraSteps: [.effect(8), .wait(.milliseconds(130)), .effect(7)],
            ermSteps: [.effect(8), .wait(.milliseconds(130)), .effect(7)],
            events: [transient(0, 0.6, 0.2), transient(0.15, 1.0, 0.2)], duration: 0.3,
            rationale: "a weak then a strong boom 0.15 s apart"
        ),
        NoteMapping(
            note: .tapticEngine(.failed), name: "taptic.failed",
            lraSteps: [.effect(7), .wait(.milliseconds(100)), .effect(7), .wait(.milliseconds(100)), .effect(7)],
            ermSteps: [.effect(7), .wait(.milliseconds(100)), .effect(7), .wait(.milliseconds(100)), .effect(7)],
            events: [transient(0, 1.0, 0.2), transient(0.12, 1.0, 0.2), transient(0.24, 1.0, 0.2)], duration: 0.4,
            rationale: "three strong booms 0.12 s apart"
        ),
        NoteMapping(
            note: .vibration(.default), name: "vibration.default",
            lraSteps: [.effect(16)], ermSteps: [.effect(16)],
            events: [continuous(0, 1.0, 1.0, 0.3)], duration: 1.0,
            rationale: "1000 ms Alert 100 %: a one-second vibration"
        ),
        NoteMapping(
            note: .vibration(.alert), name: "vibration.alert",
            lraSteps: [.effect(47), .wait(.milliseconds(100)), .effect(47)],
            ermSteps: [.effect(47), .wait(.milliseconds(100)), .effect(47)],
            events: [continuous(0, 0.2, 1.0, 0.3), continuous(0.3, 0.2, 1.0, 0.3)], duration: 0.5,
            rationale: "Buzz 1 100 % twice: two short vibrations"
        ),
    ]

    /// The mapping of `note`, or nil for notes that play no haptics (sounds, waits).
    public static func mapping(for note: Note) -> NoteMapping? {
        table.first { $0.note == note }
    }

    /// The mapping named `name` in notes files.
    public static func mapping(named name: String) -> NoteMapping? {
        table.first { $0.name == name }
    }

    /// The table as Markdown, for the README.
    public static func markdownTable() -> String {
        var lines = [
            "| note | name in files | LRA library | ERM libraries | events elsewhere (t s: intensity/sharpness) | duration | why |",
            "|---|---|---|---|---|---|---|",
        ]
        for mapping in table {
            let cells = [
                "`\(swiftSpelling(of: mapping.note))`",
                "`\(mapping.name)`",
                mapping.lraSteps.summary,
                mapping.ermSteps.summary,
                mapping.events.map(describe).joined(separator: "; "),
                "\(CompactNumber.text(mapping.duration)) s",
                mapping.rationale,
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func transient(_ time: Double, _ intensity: Double, _ sharpness: Double) -> HapticEvent {
        HapticEvent(type: .hapticTransient, time: time, parameters: [
            EventParameter(.hapticIntensity, intensity), EventParameter(.hapticSharpness, sharpness),
        ])
    }

    /// A continuous event with short attack and release so it starts and stops without a click.
    private static func continuous(_ time: Double, _ duration: Double, _ intensity: Double, _ sharpness: Double) -> HapticEvent {
        HapticEvent(type: .hapticContinuous, time: time, duration: duration, parameters: [
            EventParameter(.hapticIntensity, intensity), EventParameter(.hapticSharpness, sharpness),
            EventParameter(.attackTime, 0.01), EventParameter(.releaseTime, 0.02),
        ])
    }

    private static func swiftSpelling(of note: Note) -> String {
        switch note {
        case .hapticFeedback(.impact(let impact)): ".hapticFeedback(.impact(.\(impact.rawValue)))"
        case .hapticFeedback(.notification(let kind)): ".hapticFeedback(.notification(.\(kind.rawValue)))"
        case .hapticFeedback(.selection): ".hapticFeedback(.selection)"
        case .tapticEngine(let boom): ".tapticEngine(.\(boom.rawValue))"
        case .vibration(let vibration): ".vibration(.\(vibration.rawValue))"
        case .sound(.asset(let name)): ".sound(.asset(name: \"\(name)\"))"
        case .sound(.file(let name, let fileExtension)): ".sound(.file(name: \"\(name)\", extension: \"\(fileExtension)\"))"
        case .sound(.url(let url)): ".sound(.url(\(url.path)))"
        case .wait(let seconds): ".wait(\(CompactNumber.text(seconds)))"
        case .waitUntilFinished: ".waitUntilFinished"
        }
    }

    private static func describe(_ event: HapticEvent) -> String {
        let levels = "\(CompactNumber.text(event.value(of: .hapticIntensity)))/\(CompactNumber.text(event.value(of: .hapticSharpness)))"
        switch event.type {
        case .hapticTransient: return "\(CompactNumber.text(event.time)): tap \(levels)"
        default: return "\(CompactNumber.text(event.time)): \(CompactNumber.text(event.soundingDuration)) s hum \(levels)"
        }
    }
}
