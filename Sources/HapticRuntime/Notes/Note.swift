#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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

        /// Impact styles, as UIImpactFeedbackGenerator: three weights, and a soft (compliant) and
        /// a rigid (hard, small) collision.
        public enum Impact: String, Sendable, Hashable, CaseIterable {
            case light, medium, heavy, soft, rigid
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

    /// A sound to play alongside the haptics. Names resolve in the sound folder of whoever
    /// plays audio (the engine's `SoundLibrary`), with the content safety rules: relative, inside it.
    public enum Sound: Sendable, Hashable {
        /// A sound in the sound folder by name without its extension (Piano's asset catalog):
        /// `acapella` finds `acapella.wav`, `.flac`, `.ogg`, `.oga` or `.aiff`.
        case asset(name: String)
        /// A sound file in the sound folder, name and extension apart (`beep`, `wav`).
        case file(name: String, extension: String)
        /// A sound file anywhere the application chooses (not content: no folder rule applies).
        case url(URL)

        /// The sound a notes file names by `path`: a file when it has an extension, else an asset.
        public static func named(_ path: String) -> Sound {
            let url = URL(fileURLWithPath: path)
            guard !url.pathExtension.isEmpty else { return .asset(name: path) }
            return .file(name: String(path.dropLast(url.pathExtension.count + 1)), extension: url.pathExtension)
        }

        /// The waveform path an AudioCustom event names for this sound.
        public var waveformPath: String {
            switch self {
            case .asset(let name): name
            case .file(let name, let fileExtension): "\(name).\(fileExtension)"
            case .url(let url): url.path
            }
        }
    }
}
