/// UIKit's feedback generators on a haptic engine, for UI code that reaches for them:
/// `ImpactFeedbackGenerator(style: .rigid).impactOccurred(intensity: 0.6)`,
/// `NotificationFeedbackGenerator().notificationOccurred(.success)`,
/// `SelectionFeedbackGenerator().selectionChanged()`, and `prepare()` ahead of the gesture.
///
/// Each feedback is a player of its own, so feedback given in quick succession overlaps and mixes
/// rather than cutting the previous one short. The patterns are the note table's
/// (`NoteMapping`): ROM effects on a chip with a library, events elsewhere. As in UIKit the calls
/// do not throw; failures go to `Piano.errorHandler`.
public class FeedbackGenerator: @unchecked Sendable {
    private let givenEngine: HapticEngine?
    /// The actuator feedback plays on; nil = every actuator.
    public let actuator: String?

    /// A generator on `engine`, or when nil on the engine of the piano given to `Piano.use(_:)`
    /// at the time of each call.
    init(engine: HapticEngine?, actuator: String?) {
        givenEngine = engine
        self.actuator = actuator
    }

    /// The engine feedback plays on now.
    public var engine: HapticEngine? { givenEngine ?? Piano.current?.engine }

    /// Readies the actuators so the next feedback starts without waking or mode-switch delay
    /// (they fall back to standby on their own timeout if nothing follows).
    public func prepare() {
        onRunningEngine { engine in try engine.prepareActuators() }
    }

    /// Plays `note` now, its events' intensities scaled by `intensity` (0…1).
    func play(_ note: Note, intensity: Double = 1) {
        onRunningEngine { engine in
            try engine.makePlayer(with: HapticPattern(notes: [note], intensity: intensity), on: actuator).start(atTime: 0)
        }
    }

    /// Runs `body` on the engine, started if it was not; failures go to `Piano.errorHandler`.
    private func onRunningEngine(_ body: (HapticEngine) throws -> Void) {
        do {
            guard let engine else { throw PianoError.noPiano }
            if !engine.isRunning { try engine.start() }
            try body(engine)
        } catch {
            Piano.errorHandler(error)
        }
    }
}

/// UIImpactFeedbackGenerator: a collision of a style (light, medium, heavy, soft, rigid).
public final class ImpactFeedbackGenerator: FeedbackGenerator, @unchecked Sendable {
    /// The collision's style.
    public let style: Note.HapticFeedback.Impact

    /// A generator of `style` impacts on `engine` (default: `Piano.current`'s), on `actuator` (nil: all).
    public init(style: Note.HapticFeedback.Impact = .medium, engine: HapticEngine? = nil, actuator: String? = nil) {
        self.style = style
        super.init(engine: engine, actuator: actuator)
    }

    /// An impact at the style's full strength.
    public func impactOccurred() {
        play(.hapticFeedback(.impact(style)))
    }

    /// An impact at `intensity` (0…1) of the style's strength.
    public func impactOccurred(intensity: Double) {
        play(.hapticFeedback(.impact(style)), intensity: intensity)
    }
}

/// UINotificationFeedbackGenerator: a task succeeded, warned or failed.
public final class NotificationFeedbackGenerator: FeedbackGenerator, @unchecked Sendable {
    /// UIKit's notification kinds.
    public enum FeedbackType: Sendable, Hashable, CaseIterable {
        case success, warning, error

        /// Piano's note for the kind (`.error` is Piano's `.failure`).
        var notification: Note.HapticFeedback.Notification {
            switch self {
            case .success: .success
            case .warning: .warning
            case .error: .failure
            }
        }
    }

    /// A generator on `engine` (default: `Piano.current`'s), on `actuator` (nil: all).
    public override init(engine: HapticEngine? = nil, actuator: String? = nil) {
        super.init(engine: engine, actuator: actuator)
    }

    /// The feedback for `type`.
    public func notificationOccurred(_ type: FeedbackType) {
        play(.hapticFeedback(.notification(type.notification)))
    }
}

/// UISelectionFeedbackGenerator: the selection moved (a picker's detent).
public final class SelectionFeedbackGenerator: FeedbackGenerator, @unchecked Sendable {
    /// A generator on `engine` (default: `Piano.current`'s), on `actuator` (nil: all).
    public override init(engine: HapticEngine? = nil, actuator: String? = nil) {
        super.init(engine: engine, actuator: actuator)
    }

    /// A tick for a selection change.
    public func selectionChanged() {
        play(.hapticFeedback(.selection))
    }
}

/// UIKit's names, for code ported from iOS.
public typealias UIImpactFeedbackGenerator = ImpactFeedbackGenerator
public typealias UINotificationFeedbackGenerator = NotificationFeedbackGenerator
public typealias UISelectionFeedbackGenerator = SelectionFeedbackGenerator
