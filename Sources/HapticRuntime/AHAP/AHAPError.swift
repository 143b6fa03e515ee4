/// Why an AHAP file could not be read. Every case that comes from the file's content carries its
/// `file:line:column` and, where a key is involved, the key path
/// (`Pattern[3].Event.EventParameters[0].ParameterValue`), so the user can go straight to it.
public enum AHAPError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file could not be opened or read.
    case unreadableFile(file: String, reason: String)
    /// The text is not JSON (trailing commas aside), or nests too deeply.
    case syntax(AHAPSourceLocation, message: String)
    /// A value has the wrong JSON type, e.g. a string where a number belongs.
    case wrongType(AHAPSourceLocation, keyPath: AHAPKeyPath, expected: String, found: String)
    /// A key without a meaningful default is missing; the location is the enclosing object.
    case missingKey(AHAPSourceLocation, keyPath: AHAPKeyPath)
    /// A `Pattern` element holds none, or more than one, of `Event`, `Parameter`, `ParameterCurve`.
    case invalidPatternElement(AHAPSourceLocation, keyPath: AHAPKeyPath, kindsFound: [String])
    /// `EventType` names no Core Haptics event type; `suggestion` is the nearest valid name.
    case unknownEventType(AHAPSourceLocation, keyPath: AHAPKeyPath, name: String, suggestion: String?)
    /// `ParameterID` names no parameter allowed at that place; `suggestion` is the nearest valid name.
    case unknownParameterID(
        AHAPSourceLocation, keyPath: AHAPKeyPath, name: String, allowed: [String], suggestion: String?)
    /// A `Time` or `EventDuration` is negative.
    case negativeValue(AHAPSourceLocation, keyPath: AHAPKeyPath, value: Double)
    /// A HapticContinuous `EventDuration` is longer than `limit` seconds, too long to split into
    /// 30 s pieces (see `HapticEvent.splitAtContinuousLimit()`).
    case excessiveDuration(AHAPSourceLocation, keyPath: AHAPKeyPath, value: Double, limit: Double)
    /// An AudioCustom `EventWaveformPath` was refused.
    case waveformPath(AHAPSourceLocation, keyPath: AHAPKeyPath, path: String, problem: AHAPWaveformPathProblem)

    /// Where in the file the problem is; nil when the file could not be read at all.
    public var location: AHAPSourceLocation? {
        switch self {
        case .unreadableFile: nil
        case .syntax(let location, _),
             .wrongType(let location, _, _, _),
             .missingKey(let location, _),
             .invalidPatternElement(let location, _, _),
             .unknownEventType(let location, _, _, _),
             .unknownParameterID(let location, _, _, _, _),
             .negativeValue(let location, _, _),
             .excessiveDuration(let location, _, _, _),
             .waveformPath(let location, _, _, _):
            location
        }
    }

    /// The key the problem is about; nil for problems with the text itself.
    public var keyPath: AHAPKeyPath? {
        switch self {
        case .unreadableFile, .syntax: nil
        case .wrongType(_, let keyPath, _, _),
             .missingKey(_, let keyPath),
             .invalidPatternElement(_, let keyPath, _),
             .unknownEventType(_, let keyPath, _, _),
             .unknownParameterID(_, let keyPath, _, _, _),
             .negativeValue(_, let keyPath, _),
             .excessiveDuration(_, let keyPath, _, _),
             .waveformPath(_, let keyPath, _, _):
            keyPath
        }
    }

    /// `file:line:column: message`, naming the key path where there is one.
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
        case .invalidPatternElement(let location, let keyPath, let kindsFound):
            let holds = kindsFound.isEmpty ? "none of them" : kindsFound.joined(separator: " and ")
            return "\(location): \(keyPath) must hold exactly one of Event, Parameter or ParameterCurve; it holds \(holds)"
        case .unknownEventType(let location, let keyPath, let name, let suggestion):
            let allowed = HapticEventType.allCases.map(\.rawValue)
            return "\(location): \(keyPath): unknown event type \"\(name)\""
                + Self.hint(suggestion) + "; allowed: " + allowed.joined(separator: ", ")
        case .unknownParameterID(let location, let keyPath, let name, let allowed, let suggestion):
            return "\(location): \(keyPath): unknown parameter \"\(name)\""
                + Self.hint(suggestion) + "; allowed here: " + allowed.joined(separator: ", ")
        case .negativeValue(let location, let keyPath, let value):
            return "\(location): \(keyPath) must not be negative (it is \(AHAPNumberFormat.text(value)))"
        case .excessiveDuration(let location, let keyPath, let value, let limit):
            return "\(location): \(keyPath) \(AHAPNumberFormat.text(value)) s is longer than the \(AHAPNumberFormat.text(limit)) s this reader accepts for a continuous event"
        case .waveformPath(let location, let keyPath, let path, let problem):
            return "\(location): \(keyPath): waveform path \"\(path)\" \(problem)"
        }
    }

    private static func hint(_ suggestion: String?) -> String {
        suggestion.map { " (did you mean \"\($0)\"?)" } ?? ""
    }
}
