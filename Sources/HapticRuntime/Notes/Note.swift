/// A Piano-style note: one step of a list that plays haptic feedback, Taptic Engine booms,
/// vibrations and sounds, with waits between them.
public enum Note: Sendable, Hashable {
    case hapticFeedback(HapticFeedback)
    case tapticEngine(TapticEngine)
    case vibration(Vibration)
    case sound(Sound)
    /// Waits this many seconds before the next note.
    case wait(Double)
    /// Waits until the previous note has finished (its fixed duration in the mapping table).
    case waitUntilFinished

    /// UIKit-style feedback generators.
    public enum HapticFeedback: Sendable, Hashable {
        case impact(Impact)
        case notification(Notification)
        case selection

        /// Impact strengths, as UIImpactFeedbackGenerator.
        public enum Impact: String, Sendable, Hashable, CaseIterable {
            case light, medium, heavy
        }

        /// Notification kinds, as UINotificationFeedbackGenerator.
        public enum Notification: String, Sendable, Hashable, CaseIterable {
            case success, warning, failure
        }
    }

    /// First-generation Taptic Engine "booms".
    public enum TapticEngine: String, Sendable, Hashable, CaseIterable {
        /// One weak boom.
        case peek
        /// One strong boom.
        case pop
        /// Three weak booms.
        case cancelled
        /// One weak boom, then one strong boom.
        case tryAgain
        /// Three strong booms.
        case failed
    }

    /// Classic vibrations.
    public enum Vibration: String, Sendable, Hashable, CaseIterable {
        /// A one-second vibration.
        case `default`
        /// Two short vibrations.
        case alert
    }

    /// A sound to play alongside the haptics.
    public enum Sound: Sendable, Hashable {
        /// A sound file, by name (resolved by whoever plays audio).
        case file(name: String)
    }
}
