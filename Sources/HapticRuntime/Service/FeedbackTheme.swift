import FoundationEssentials

/// How much feedback events give, as feedbackd names it: `full` plays every profile's feedback of
/// an event, `quiet` the quiet and silent ones, `silent` only the silent ones.
public enum FeedbackProfile: String, Sendable, Hashable, CaseIterable, Comparable {
    case silent, quiet, full

    /// The profiles whose feedback plays at this one.
    public var included: [FeedbackProfile] { Self.allCases.filter { $0 <= self } }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// A feedback theme in feedbackd's format (`feedback-themes(5)`): named events of the
/// freedesktop Event Naming Specification (`button-pressed`, `message-new-instant`, …) mapped to
/// feedback per profile, with an optional parent theme for events it does not name.
///
/// The haptic feedback types play on the board's actuators: `VibraRumble` (`count` rumbles of
/// `duration` ms at `magnitude`, `pause` ms apart), `VibraPeriodic` (`duration` ms at `magnitude`,
/// rising from `fade-in-level` over `fade-in-time` ms), `VibraPattern` (`magnitudes` for
/// `durations` ms each). hapticboard adds `Haptic`, whose `notation`, `notes`, `library` or
/// `effect` names any content. `Sound` and `Led` feedback has no actuator to play on and is
/// skipped (listed in `skippedTypes`).
public struct FeedbackTheme: Sendable {
    /// One feedback of an event in one profile.
    public enum Feedback: Sendable, Hashable {
        /// A pattern made from the theme entry (vibra types, or notation/notes/effect).
        case pattern(HapticPattern)
        /// A pattern of the content library, by name.
        case library(String)
        /// A type with nothing to play on an actuator (`Sound`, `Led`).
        case skipped(type: String)
    }

    public var name: String
    public var parentName: String?
    /// Event name → feedback, per profile.
    public var profiles: [FeedbackProfile: [String: Feedback]]
    /// The parent theme, once resolved.
    public var parent: [FeedbackTheme]

    /// The feedback `event` gives at `profile`: every included profile's, this theme's before
    /// the parent's for each profile. Empty when neither names the event at that profile.
    public func feedback(for event: String, at profile: FeedbackProfile) -> [Feedback] {
        profile.included.reversed().compactMap { included in
            profiles[included]?[event] ?? parent.first?.feedback(for: event, atOnly: included)
        }
    }

    private func feedback(for event: String, atOnly profile: FeedbackProfile) -> Feedback? {
        profiles[profile]?[event] ?? parent.first?.feedback(for: event, atOnly: profile)
    }

    /// Whether this theme or its parent names `event` at any profile.
    public func names(_ event: String) -> Bool {
        profiles.values.contains { $0[event] != nil } || parent.first?.names(event) == true
    }

    /// Every event this theme or its parent names, at any profile, sorted.
    public var eventNames: [String] {
        var names = Set(profiles.values.flatMap(\.keys))
        if let parent = parent.first { names.formUnion(parent.eventNames) }
        return names.sorted()
    }

    /// Feedback types the theme holds that play nothing here.
    public var skippedTypes: Set<String> {
        var types = Set(profiles.values.flatMap(\.values).compactMap { feedback -> String? in
            if case .skipped(let type) = feedback { return type }
            return nil
        })
        if let parent = parent.first { types.formUnion(parent.skippedTypes) }
        return types
    }
}

extension FeedbackTheme {
    /// Reads the theme file at `url`; `parent-name` is looked up as `<name>.json` beside it.
    /// - Throws: `FeedbackThemeError` naming the file, line and column.
    public static func load(contentsOf url: URL) throws(FeedbackThemeError) -> FeedbackTheme {
        try load(contentsOf: url, visited: [])
    }

    private static func load(contentsOf url: URL, visited: Set<String>) throws(FeedbackThemeError) -> FeedbackTheme {
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw FeedbackThemeError(file: url.path, line: nil, column: nil, message: "cannot read the theme: \(FileReadFailure.reason(for: error))")
        }
        var theme = try parse(text, file: url.path)
        if let parentName = theme.parentName {
            let parentURL = url.deletingLastPathComponent().appendingPathComponent(parentName + ".json")
            guard !visited.contains(parentURL.standardizedFileURL.path) else {
                throw FeedbackThemeError(file: url.path, line: nil, column: nil, message: "parent-name '\(parentName)' leads back to this theme")
            }
            theme.parent = [try load(contentsOf: parentURL, visited: visited.union([url.standardizedFileURL.path]))]
        }
        return theme
    }

    /// Reads theme JSON held in memory (`file` names it in errors); the parent is not resolved.
    public static func parse(_ text: String, file: String) throws(FeedbackThemeError) -> FeedbackTheme {
        let root: LocatedJSON
        do {
            root = try LocatedJSONReader.read(text)
        } catch {
            throw FeedbackThemeError(file: file, line: error.position.line, column: error.position.column, message: error.message)
        }
        if let repeated = root.repeatedKeys().first {
            throw FeedbackThemeError(file: file, line: repeated.again?.line, column: repeated.again?.column, message: "\(repeated.keyPath): \(repeated.refusal)")
        }
        return try FeedbackThemeReader(file: file).theme(root)
    }
}

/// A problem in a theme file, located by file, line and column.
public struct FeedbackThemeError: Error, Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var column: Int?
    public var message: String

    public var description: String {
        [file, line.map(String.init), column.map(String.init)].compactMap { $0 }.joined(separator: ":") + ": " + message
    }
}

/// Reads feedbackd's theme JSON into a `FeedbackTheme`, every problem located.
private struct FeedbackThemeReader {
    let file: String

    func theme(_ root: LocatedJSON) throws(FeedbackThemeError) -> FeedbackTheme {
        let members = try object(root, "the theme")
        try rejectUnknown(members, known: ["name", "parent-name", "profiles"])
        let name = try string(required(members, "name", in: root), "name")
        let parentName = try members.first { $0.key == "parent-name" }.map { member throws(FeedbackThemeError) in try string(member.value, "parent-name") }
        var profiles: [FeedbackProfile: [String: FeedbackTheme.Feedback]] = [:]
        for profileValue in try array(required(members, "profiles", in: root), "profiles") {
            let profileMembers = try object(profileValue, "a profile")
            try rejectUnknown(profileMembers, known: ["name", "feedbacks"])
            let profileNameValue = try required(profileMembers, "name", in: profileValue)
            let profileName = try string(profileNameValue, "name")
            guard let profile = FeedbackProfile(rawValue: profileName) else {
                throw problem(at: profileNameValue, "unknown profile '\(profileName)'; expected full, quiet or silent")
            }
            var events: [String: FeedbackTheme.Feedback] = [:]
            for feedbackValue in try array(required(profileMembers, "feedbacks", in: profileValue), "feedbacks") {
                let (event, feedback) = try self.feedback(feedbackValue)
                guard events[event] == nil else { throw problem(at: feedbackValue, "event '\(event)' has a feedback in profile \(profileName) already: each event maps to at most one feedback per profile") }
                events[event] = feedback
            }
            profiles[profile] = events
        }
        return FeedbackTheme(name: name, parentName: parentName, profiles: profiles, parent: [])
    }

    private func feedback(_ value: LocatedJSON) throws(FeedbackThemeError) -> (String, FeedbackTheme.Feedback) {
        let members = try object(value, "a feedback")
        let event = try string(required(members, "event-name", in: value), "event-name")
        let typeValue = try required(members, "type", in: value)
        let type = try string(typeValue, "type")
        func number(_ key: String, default fallback: Double, in range: ClosedRange<Double>) throws(FeedbackThemeError) -> Double {
            guard let member = members.first(where: { $0.key == key }) else { return fallback }
            guard case .number(let number) = member.value.kind, range.contains(number.value) else {
                throw problem(at: member.value, "\(key): expected a number in \(range.lowerBound)...\(range.upperBound)")
            }
            return number.value
        }
        let maximumMilliseconds = 60_000.0
        switch type {
        case "VibraRumble":
            try rejectUnknown(members, known: ["event-name", "type", "count", "pause", "duration", "magnitude"])
            return (event, .pattern(VibraPatterns.rumble(
                count: Int(try number("count", default: 1, in: 1...100)), pause: try number("pause", default: 0, in: 0...maximumMilliseconds),
                duration: try number("duration", default: 0, in: 1...maximumMilliseconds), magnitude: try number("magnitude", default: 1, in: 0...1)
            )))
        case "VibraPeriodic":
            try rejectUnknown(members, known: ["event-name", "type", "magnitude", "fade-in-level", "fade-in-time", "duration"])
            return (event, .pattern(VibraPatterns.periodic(
                duration: try number("duration", default: 0, in: 1...maximumMilliseconds), magnitude: try number("magnitude", default: 1, in: 0...1),
                fadeInLevel: try number("fade-in-level", default: 1, in: 0...1), fadeInTime: try number("fade-in-time", default: 0, in: 0...maximumMilliseconds)
            )))
        case "VibraPattern":
            try rejectUnknown(members, known: ["event-name", "type", "magnitudes", "durations"])
            let magnitudes = try numbers(required(members, "magnitudes", in: value), "magnitudes", in: 0...1)
            let durationsValue = try required(members, "durations", in: value)
            let durations = try numbers(durationsValue, "durations", in: 0...maximumMilliseconds)
            guard magnitudes.count == durations.count, !durations.isEmpty else {
                throw problem(at: durationsValue, "magnitudes and durations must be non-empty and of the same length (\(magnitudes.count) and \(durations.count))")
            }
            return (event, .pattern(VibraPatterns.pattern(magnitudes: magnitudes, durations: durations)))
        case "Haptic":
            try rejectUnknown(members, known: ["event-name", "type", "notation", "notes", "library", "effect"])
            return (event, try haptic(members, in: value))
        case "Sound", "Led":
            return (event, .skipped(type: type))
        default:
            throw problem(at: typeValue, "unknown feedback type '\(type)'; expected VibraRumble, VibraPeriodic, VibraPattern, Haptic, Sound or Led")
        }
    }

    /// hapticboard's own type: exactly one of notation, notes, library, effect.
    private func haptic(_ members: [LocatedJSON.Member], in value: LocatedJSON) throws(FeedbackThemeError) -> FeedbackTheme.Feedback {
        let given = members.filter { ["notation", "notes", "library", "effect"].contains($0.key) }
        guard given.count == 1, let member = given.first else {
            throw problem(at: value, "a Haptic feedback names exactly one of notation, notes, library or effect")
        }
        switch member.key {
        case "effect":
            guard case .number(let number) = member.value.kind, let pattern = HapticPattern(playingROMEffect: Int(exactly: number.value) ?? 0) else {
                throw problem(at: member.value, "effect: expected a ROM effect id 1...123")
            }
            return .pattern(pattern)
        case "library":
            return .library(try string(member.value, "library"))
        default:
            let text = try string(member.value, member.key)
            do {
                let content = try ContentLoader.parse(text, format: member.key == "notation" ? .notation : .notes, file: "\(file) \(member.key)")
                return .pattern(content.pattern)
            } catch {
                throw problem(at: member.value, "\(member.key): \(error)")
            }
        }
    }

    // MARK: Values

    private func object(_ value: LocatedJSON, _ what: String) throws(FeedbackThemeError) -> [LocatedJSON.Member] {
        guard case .object(let members) = value.kind else { throw problem(at: value, "expected \(what) (an object), found \(value.typeName)") }
        return members
    }

    private func array(_ value: LocatedJSON, _ key: String) throws(FeedbackThemeError) -> [LocatedJSON] {
        guard case .array(let elements) = value.kind else { throw problem(at: value, "\(key): expected an array, found \(value.typeName)") }
        return elements
    }

    private func string(_ value: LocatedJSON, _ key: String) throws(FeedbackThemeError) -> String {
        guard case .string(let text) = value.kind else { throw problem(at: value, "\(key): expected a string, found \(value.typeName)") }
        return text
    }

    private func numbers(_ value: LocatedJSON, _ key: String, in range: ClosedRange<Double>) throws(FeedbackThemeError) -> [Double] {
        var numbers: [Double] = []
        for element in try array(value, key) {
            guard case .number(let number) = element.kind, range.contains(number.value) else {
                throw problem(at: element, "\(key): expected numbers in \(range.lowerBound)...\(range.upperBound)")
            }
            numbers.append(number.value)
        }
        return numbers
    }

    private func required(_ members: [LocatedJSON.Member], _ key: String, in value: LocatedJSON) throws(FeedbackThemeError) -> LocatedJSON {
        guard let member = members.first(where: { $0.key == key }) else { throw problem(at: value, "missing '\(key)'") }
        return member.value
    }

    /// Unknown keys are errors: a misspelt `magnitude` silently replaced by full strength is
    /// exactly what a theme author must hear about.
    private func rejectUnknown(_ members: [LocatedJSON.Member], known: Set<String>) throws(FeedbackThemeError) {
        guard let unknown = members.first(where: { !known.contains($0.key) }) else { return }
        let hint = NameSuggestion.nearest(to: unknown.key, in: known.sorted()).map { "did you mean '\($0)'?" } ?? "expected one of \(known.sorted().joined(separator: ", "))"
        throw FeedbackThemeError(file: file, line: unknown.keyPosition.line, column: unknown.keyPosition.column, message: "unknown key '\(unknown.key)'; \(hint)")
    }

    private func problem(at value: LocatedJSON, _ message: String) -> FeedbackThemeError {
        FeedbackThemeError(file: file, line: value.position.line, column: value.position.column, message: message)
    }
}

/// feedbackd's vibra feedback as patterns: continuous events at the magnitude as intensity,
/// sharpness 0.5 (a rumble's middle), times in milliseconds.
enum VibraPatterns {
    static func rumble(count: Int, pause: Double, duration: Double, magnitude: Double) -> HapticPattern {
        HapticPattern(events: (0..<count).map { index in
            continuous(at: Double(index) * (duration + pause), duration: duration, magnitude: magnitude)
        })
    }

    static func periodic(duration: Double, magnitude: Double, fadeInLevel: Double, fadeInTime: Double) -> HapticPattern {
        var pattern = HapticPattern(events: [continuous(at: 0, duration: duration, magnitude: magnitude)])
        if fadeInTime > 0, magnitude > 0, fadeInLevel < 1 {
            // The event's intensity is scaled by the control: from the fade-in level up to 1.
            pattern.parameterCurves.append(ParameterCurve(
                .hapticIntensityControl, time: 0,
                controlPoints: [ControlPoint(time: 0, value: fadeInLevel), ControlPoint(time: min(fadeInTime, duration) / 1000, value: 1)]
            ))
        }
        return pattern
    }

    static func pattern(magnitudes: [Double], durations: [Double]) -> HapticPattern {
        var events: [HapticEvent] = []
        var time = 0.0
        for (magnitude, duration) in zip(magnitudes, durations) {
            if magnitude > 0, duration > 0 { events.append(continuous(at: time, duration: duration, magnitude: magnitude)) }
            time += duration
        }
        return HapticPattern(events: events)
    }

    private static func continuous(at milliseconds: Double, duration: Double, magnitude: Double) -> HapticEvent {
        HapticEvent(
            type: .hapticContinuous, time: milliseconds / 1000, duration: duration / 1000,
            parameters: [EventParameter(.hapticIntensity, magnitude), EventParameter(.hapticSharpness, 0.5)]
        )
    }
}
