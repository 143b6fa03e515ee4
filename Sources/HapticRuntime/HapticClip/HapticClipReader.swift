/// Turns a parsed `.haptic` document into a `HapticClip`, checking the structure Meta's reader
/// requires (`version.major`, `signals.continuous.envelopes.amplitude`, numbers where numbers
/// belong) and every rule of `HapticClipRule`, each failure with its `line:column` and JSON path.
/// Unknown keys are ignored, as Meta's reader ignores them; `metadata` and the frequency envelope
/// are optional.
struct HapticClipReader {
    /// The file name used in locations.
    let file: String
    var warnings: [ContentWarning] = []

    private static let envelopesPath = AHAPKeyPath().appending("signals").appending("continuous").appending("envelopes")

    init(file: String) {
        self.file = file
    }

    mutating func read(_ root: LocatedJSON) throws(HapticClipError) -> HapticClip {
        // As in AHAP: content from any tool is played, with a word about what was ignored.
        for repeated in root.repeatedKeys() {
            let position = repeated.again.map(LocatedJSON.Position.init) ?? root.position
            warnings.append(ContentWarning(location: location(position).description, message: "\(repeated.keyPath): appears more than once; the last value is used"))
        }
        let top = try object(root, at: AHAPKeyPath())
        let version = try readVersion(in: top)
        let metadata = try readMetadata(in: top)
        let signals = try object(try required("signals", in: top), at: top.path.appending("signals"))
        let continuous = try object(try required("continuous", in: signals), at: signals.path.appending("continuous"))
        let envelopes = try object(try required("envelopes", in: continuous), at: Self.envelopesPath)
        let amplitude = try readAmplitude(try required("amplitude", in: envelopes), in: envelopes)
        var frequency: [FrequencyBreakpoint]?
        if let list = envelopes["frequency"] {
            frequency = try readFrequency(list, at: envelopes.path.appending("frequency"), amplitudeEnd: amplitude.last?.time ?? 0)
        }
        return HapticClip(version: version, metadata: metadata, amplitude: amplitude, frequency: frequency)
    }

    // MARK: Version and metadata

    private func readVersion(in top: AHAPObject) throws(HapticClipError) -> HapticClipVersion {
        let version = try object(try required("version", in: top), at: top.path.appending("version"))
        let majorValue = try required("major", in: version)
        let major = try number(majorValue, at: version.path.appending("major"))
        guard major == Double(HapticClip.supportedMajorVersion) else {
            throw .unsupportedVersion(location(majorValue.position), keyPath: version.path.appending("major"), major: major)
        }
        func part(_ key: String) throws(HapticClipError) -> Int {
            guard let value = version[key] else { return 0 }
            let number = try self.number(value, at: version.path.appending(key))
            return number >= 0 && number < 1e9 ? Int(number) : 0
        }
        return HapticClipVersion(major: HapticClip.supportedMajorVersion, minor: try part("minor"), patch: try part("patch"))
    }

    private func readMetadata(in top: AHAPObject) throws(HapticClipError) -> HapticClipMetadata {
        guard let value = top["metadata"] else { return HapticClipMetadata() }
        let metadata = try object(value, at: top.path.appending("metadata"))
        func text(_ key: String) throws(HapticClipError) -> String {
            guard let value = metadata[key] else { return "" }
            return try string(value, at: metadata.path.appending(key))
        }
        var tags: [String] = []
        if let list = metadata["tags"] {
            let path = metadata.path.appending("tags")
            for (index, tag) in try array(list, at: path).enumerated() {
                tags.append(try string(tag, at: path.appending(index)))
            }
        }
        return HapticClipMetadata(
            editor: try text("editor"), author: try text("author"), source: try text("source"),
            project: try text("project"), tags: tags, description: try text("description"))
    }

    // MARK: Envelopes

    private func readAmplitude(_ value: LocatedJSON, in envelopes: AHAPObject) throws(HapticClipError) -> [AmplitudeBreakpoint] {
        let path = envelopes.path.appending("amplitude")
        let elements = try array(value, at: path)
        var breakpoints: [AmplitudeBreakpoint] = []
        breakpoints.reserveCapacity(elements.count)
        var previousTime = 0.0
        var lastTime: (LocatedJSON, AHAPKeyPath)?
        for (index, element) in elements.enumerated() {
            let point = try object(element, at: path.appending(index))
            let (time, timeValue) = try located("time", in: point)
            lastTime = (timeValue, point.path.appending("time"))
            guard time >= previousTime else {
                throw brokenRule(timeValue, point.path.appending("time"), time, .amplitudeTimesInOrder, reference: previousTime)
            }
            previousTime = time
            let (amplitude, amplitudeValue) = try located("amplitude", in: point)
            guard (0...1).contains(amplitude) else {
                throw brokenRule(amplitudeValue, point.path.appending("amplitude"), amplitude, .amplitudeInRange)
            }
            var breakpoint = AmplitudeBreakpoint(time: time, amplitude: amplitude)
            if let emphasisValue = point["emphasis"] {
                breakpoint.emphasis = try readEmphasis(emphasisValue, at: point.path.appending("emphasis"), over: amplitude)
            }
            breakpoints.append(breakpoint)
        }
        guard breakpoints.count >= 2 else {
            throw .brokenRule(location(value.position), keyPath: path, value: nil, rule: .atLeastTwoAmplitudeBreakpoints, reference: Double(breakpoints.count))
        }
        if let first = breakpoints.first, let last = breakpoints.last, !(last.time > first.time) {
            throw .brokenRule(location(value.position), keyPath: path, value: nil, rule: .amplitudeEnvelopeLasts, reference: last.time - first.time)
        }
        // The clip becomes one continuous event, split at 30 s: a time of 1e26 s (or infinity)
        // passes the order rule, and would have made that split count past Int.max.
        if let first = breakpoints.first, let last = breakpoints.last, let (timeValue, timePath) = lastTime,
           last.time - first.time > HapticClip.longestDuration {
            throw .excessiveDuration(location(timeValue.position), keyPath: timePath, value: last.time - first.time,
                                     limit: HapticClip.longestDuration)
        }
        return breakpoints
    }

    private func readEmphasis(_ value: LocatedJSON, at path: AHAPKeyPath, over breakpointAmplitude: Double) throws(HapticClipError) -> Emphasis {
        let emphasis = try object(value, at: path)
        let (amplitude, amplitudeValue) = try located("amplitude", in: emphasis)
        guard (0...1).contains(amplitude) else {
            throw brokenRule(amplitudeValue, path.appending("amplitude"), amplitude, .emphasisAmplitudeInRange)
        }
        let (frequency, frequencyValue) = try located("frequency", in: emphasis)
        guard (0...1).contains(frequency) else {
            throw brokenRule(frequencyValue, path.appending("frequency"), frequency, .emphasisFrequencyInRange)
        }
        guard amplitude >= breakpointAmplitude else {
            throw brokenRule(amplitudeValue, path.appending("amplitude"), amplitude, .emphasisNotBelowBreakpoint, reference: breakpointAmplitude)
        }
        return Emphasis(amplitude: amplitude, frequency: frequency)
    }

    private mutating func readFrequency(_ value: LocatedJSON, at path: AHAPKeyPath, amplitudeEnd: Double) throws(HapticClipError) -> [FrequencyBreakpoint] {
        var breakpoints: [FrequencyBreakpoint] = []
        var previousTime = 0.0
        var firstPastEnd: (index: Int, position: LocatedJSON.Position)?
        let elements = try array(value, at: path)
        breakpoints.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            let point = try object(element, at: path.appending(index))
            let (time, timeValue) = try located("time", in: point)
            guard time >= previousTime else {
                throw brokenRule(timeValue, point.path.appending("time"), time, .frequencyTimesInOrder, reference: previousTime)
            }
            previousTime = time
            let (frequency, frequencyValue) = try located("frequency", in: point)
            guard (0...1).contains(frequency) else {
                throw brokenRule(frequencyValue, point.path.appending("frequency"), frequency, .frequencyInRange)
            }
            if time > amplitudeEnd, firstPastEnd == nil { firstPastEnd = (index, timeValue.position) }
            breakpoints.append(FrequencyBreakpoint(time: time, frequency: frequency))
        }
        // Meta's strict rule, which its legacy mode (and so this reader) skips: design tools export
        // frequency envelopes that run a little past the amplitude envelope's end.
        if let firstPastEnd {
            let count = breakpoints.count - firstPastEnd.index
            let last = breakpoints.last?.time ?? amplitudeEnd
            warnings.append(ContentWarning(
                location: location(firstPastEnd.position).description,
                message: "\(path.appending(firstPastEnd.index)): \(count) frequency breakpoint(s) after the amplitude envelope's end at \(AHAPNumberFormat.text(amplitudeEnd)) s (up to \(AHAPNumberFormat.text(last)) s); clamped to it"))
        }
        return breakpoints
    }

    // MARK: Typed access

    private func location(_ position: LocatedJSON.Position) -> AHAPSourceLocation {
        AHAPSourceLocation(file: file, line: position.line, column: position.column)
    }

    private func brokenRule(_ value: LocatedJSON, _ path: AHAPKeyPath, _ number: Double, _ rule: HapticClipRule, reference: Double? = nil) -> HapticClipError {
        .brokenRule(location(value.position), keyPath: path, value: number, rule: rule, reference: reference)
    }

    private func required(_ key: String, in object: AHAPObject) throws(HapticClipError) -> LocatedJSON {
        guard let value = object[key] else {
            throw .missingKey(location(object.position), keyPath: object.path.appending(key))
        }
        return value
    }

    /// A required number member with the value it was read from.
    private func located(_ key: String, in object: AHAPObject) throws(HapticClipError) -> (Double, LocatedJSON) {
        let value = try required(key, in: object)
        return (try number(value, at: object.path.appending(key)), value)
    }

    private func mismatch(_ value: LocatedJSON, at path: AHAPKeyPath, expected: String) -> HapticClipError {
        .wrongType(location(value.position), keyPath: path, expected: expected, found: value.typeName)
    }

    private func object(_ value: LocatedJSON, at path: AHAPKeyPath) throws(HapticClipError) -> AHAPObject {
        guard case .object(let members) = value.kind else { throw mismatch(value, at: path, expected: "an object") }
        return AHAPObject(position: value.position, path: path, members: members)
    }

    private func array(_ value: LocatedJSON, at path: AHAPKeyPath) throws(HapticClipError) -> [LocatedJSON] {
        guard case .array(let elements) = value.kind else { throw mismatch(value, at: path, expected: "an array") }
        return elements
    }

    private func number(_ value: LocatedJSON, at path: AHAPKeyPath) throws(HapticClipError) -> Double {
        guard case .number(let number) = value.kind else { throw mismatch(value, at: path, expected: "a number") }
        return number.value
    }

    private func string(_ value: LocatedJSON, at path: AHAPKeyPath) throws(HapticClipError) -> String {
        guard case .string(let text) = value.kind else { throw mismatch(value, at: path, expected: "a string") }
        return text
    }
}
