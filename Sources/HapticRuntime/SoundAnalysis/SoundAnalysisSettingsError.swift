/// Why an analysis setting or preset file was refused.
public enum SoundAnalysisSettingsError: Error, Sendable, Hashable, CustomStringConvertible {
    case unknownSetting(String, suggestion: String?)
    case outOfRange(String, value: Double, range: ClosedRange<Double>)
    /// A whole number (or an even FFT size) was expected.
    case notWhole(String, value: Double)
    case emptyFrequencyRange(minimum: Double, maximum: Double)
    /// A preset file's problem, located: `file:line:column: key: message`.
    case preset(AHAPSourceLocation, keyPath: AHAPKeyPath?, message: String)
    case unreadablePreset(file: String, reason: String)

    public var description: String {
        switch self {
        case .unknownSetting(let key, let suggestion):
            return "unknown analysis setting '\(key)'" + (suggestion.map { " (did you mean '\($0)'?)" } ?? "")
                + "; known: " + SoundAnalysisSettings.all.map(\.key).joined(separator: ", ")
        case .outOfRange(let key, let value, let range):
            return "\(key) \(AHAPNumberFormat.text(value)): expected \(AHAPNumberFormat.text(range.lowerBound))…\(AHAPNumberFormat.text(range.upperBound))"
        case .notWhole(let key, let value):
            return "\(key) \(AHAPNumberFormat.text(value)): expected a whole number" + (key == "fft-size" ? " that is even" : "")
        case .emptyFrequencyRange(let minimum, let maximum):
            return "frequency-min-hz \(AHAPNumberFormat.text(minimum)) must be below frequency-max-hz \(AHAPNumberFormat.text(maximum))"
        case .preset(let location, let keyPath, let message):
            return "\(location): " + (keyPath.map { "\($0): " } ?? "") + message
        case .unreadablePreset(let file, let reason):
            return "\(file): cannot read the preset: \(reason)"
        }
    }
}
