/// Why a `.haptic` file could not be read. Every case about the content carries its
/// `file:line:column` and the JSON path (`signals.continuous.envelopes.amplitude[3].emphasis.amplitude`);
/// a broken rule also carries the value and the rule.
public enum HapticClipError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file could not be opened or read.
    case unreadableFile(file: String, reason: String)
    /// The text is not JSON (trailing commas aside), or nests too deeply.
    case syntax(AHAPSourceLocation, message: String)
    /// A value has the wrong JSON type, e.g. a string where a number belongs.
    case wrongType(AHAPSourceLocation, keyPath: AHAPKeyPath, expected: String, found: String)
    /// A required key is missing; the location is the enclosing object.
    case missingKey(AHAPSourceLocation, keyPath: AHAPKeyPath)
    /// `version.major` is not 1.
    case unsupportedVersion(AHAPSourceLocation, keyPath: AHAPKeyPath, major: Double)
    /// A value breaks a validation rule; `value` is nil for rules about a whole envelope, and
    /// `reference` is what it was held against (the previous time, the breakpoint's amplitude,
    /// the breakpoint count), when there is such a thing.
    case brokenRule(AHAPSourceLocation, keyPath: AHAPKeyPath, value: Double?, rule: HapticClipRule, reference: Double? = nil)
    /// The amplitude envelope lasts longer than `HapticClip.longestDuration`; `value` is its
    /// duration in seconds, the location its last breakpoint's time.
    case excessiveDuration(AHAPSourceLocation, keyPath: AHAPKeyPath, value: Double, limit: Double)

    /// Where in the file the problem is; nil when the file could not be read at all.
    public var location: AHAPSourceLocation? {
        switch self {
        case .unreadableFile: nil
        case .syntax(let location, _), .wrongType(let location, _, _, _), .missingKey(let location, _),
             .unsupportedVersion(let location, _, _), .brokenRule(let location, _, _, _, _),
             .excessiveDuration(let location, _, _, _):
            location
        }
    }

    /// The rule broken, for `.brokenRule`.
    public var rule: HapticClipRule? {
        if case .brokenRule(_, _, _, let rule, _) = self { return rule }
        return nil
    }

    /// `file:line:column: path: what is wrong`.
    public var description: String {
        switch self {
        case .unreadableFile(let file, let reason):
            return "\(file): cannot read the file: \(reason)"
        case .syntax(let location, let message):
            return "\(location): \(message)"
        case .wrongType(let location, let keyPath, let expected, let found):
            return "\(location): \(keyPath): expected \(expected), found \(found)"
        case .missingKey(let location, let keyPath):
            return "\(location): \(keyPath) is missing"
        case .unsupportedVersion(let location, let keyPath, let major):
            return "\(location): \(keyPath): .haptic version \(Int(exactly: major).map(String.init) ?? AHAPNumberFormat.text(major)) is not read; this reader reads version \(HapticClip.supportedMajorVersion) (1.x.y) files"
        case .brokenRule(let location, let keyPath, let value, let rule, let reference):
            let shown = value.map { " is \(AHAPNumberFormat.text($0))" } ?? ""
            let held = reference.map { " (\(rule.referenceName) \(rule.referenceText($0)))" } ?? ""
            return "\(location): \(keyPath)\(shown): \(rule.text)\(held)"
        case .excessiveDuration(let location, let keyPath, let value, let limit):
            return "\(location): \(keyPath): the clip lasts \(AHAPNumberFormat.text(value)) s, longer than the \(AHAPNumberFormat.text(limit)) s this reader accepts"
        }
    }
}
