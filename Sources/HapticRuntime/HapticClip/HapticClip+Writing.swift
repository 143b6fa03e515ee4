extension HapticClip {
    /// The clip as `.haptic` JSON with a stable key order (`version`, `metadata` when not empty,
    /// `signals`); ``read(text:file:)`` gives the same clip back.
    public var text: String {
        var top: [(key: String, value: JSONOutput)] = [
            ("version", .object([("major", .number(String(version.major))), ("minor", .number(String(version.minor))), ("patch", .number(String(version.patch)))])),
        ]
        if !metadata.isEmpty {
            top.append(("metadata", .object([
                ("editor", .string(metadata.editor)), ("author", .string(metadata.author)),
                ("source", .string(metadata.source)), ("project", .string(metadata.project)),
                ("tags", .array(metadata.tags.map(JSONOutput.string))), ("description", .string(metadata.description)),
            ])))
        }
        var envelopes: [(key: String, value: JSONOutput)] = [("amplitude", .array(amplitude.map(Self.output)))]
        if let frequency {
            envelopes.append(("frequency", .array(frequency.map {
                .object([("time", Self.number($0.time)), ("frequency", Self.number($0.frequency))])
            })))
        }
        top.append(("signals", .object([("continuous", .object([("envelopes", .object(envelopes))]))])))
        return JSONOutput.object(top).rendered() + "\n"
    }

    private static func output(_ breakpoint: AmplitudeBreakpoint) -> JSONOutput {
        var members: [(key: String, value: JSONOutput)] = [("time", number(breakpoint.time)), ("amplitude", number(breakpoint.amplitude))]
        if let emphasis = breakpoint.emphasis {
            members.append(("emphasis", .object([("amplitude", number(emphasis.amplitude)), ("frequency", number(emphasis.frequency))])))
        }
        return .object(members)
    }

    private static func number(_ value: Double) -> JSONOutput { .number(AHAPNumberFormat.text(value)) }
}
