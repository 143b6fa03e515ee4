/// The content formats hapticboard reads.
public enum ContentFormat: String, Sendable, Hashable, CaseIterable {
    /// Apple Haptic Audio Pattern (`.ahap`, `.json`).
    case ahap
    /// Haptic Notation Language (`.hnl`, `.haptic-notation`).
    case notation
    /// Piano-style note list (`.notes`, `.notes.json`).
    case notes
}

/// Something a reader accepted but changed or ignored: a clamped value, a split event, an unknown key.
public struct ContentWarning: Sendable, Hashable, CustomStringConvertible {
    /// Where: `file:line:column` and/or a key path such as `Pattern[3].Event.EventParameters[0]`.
    public var location: String
    public var message: String

    public init(location: String, message: String) {
        self.location = location
        self.message = message
    }

    public var description: String { "\(location): warning: \(message)" }
}

/// A pattern read from some source, with what the reader had to say about it.
public struct LoadedContent: Sendable, Hashable {
    public var format: ContentFormat
    public var pattern: HapticPattern
    public var warnings: [ContentWarning]

    public init(format: ContentFormat, pattern: HapticPattern, warnings: [ContentWarning] = []) {
        self.format = format
        self.pattern = pattern
        self.warnings = warnings
    }
}
