/// What a binding plays: every kind of content the service plays, resolved when it fires.
public enum InputContent: Sendable, Hashable {
    /// A DRV2605 ROM effect, 1–123.
    case effect(Int)
    /// UIKit's feedback vocabulary (`impact/light`, `selection`, `notification/success`).
    case feedback(Note.HapticFeedback, intensity: Double)
    /// A named event of the feedback theme (`button-pressed`).
    case event(String)
    /// A pattern of the content library, by name.
    case library(String)
    /// Haptic Notation written in the board file, read when the board loads.
    case notation(source: String, HapticPattern)

    /// The service request's content.
    var serviceContent: ServiceContent {
        switch self {
        case .effect(let id): .effect(id)
        case .feedback(let feedback, let intensity): .feedback(feedback, intensity: intensity)
        case .event(let name): .event(name)
        case .library(let name): .library(name)
        case .notation(_, let pattern): .pattern(name: "notation", pattern)
        }
    }
}

/// When a binding fires.
public enum InputTrigger: Sendable, Hashable {
    /// When the button becomes active.
    case press
    /// When it becomes inactive.
    case release
    /// Once it has been held for `after`; again every `repeatEvery` while it stays held (up to
    /// the binding's maximum hold).
    case hold(after: Duration, repeatEvery: Duration?)
    /// From press to release: the content loops while the button is held (a continuous feel),
    /// then `tail` plays. Never left running: at the binding's maximum hold it ends as if released.
    case whileHeld(tail: InputContent?)
    /// On every encoder detent, in `direction` (+1, −1) or either (nil).
    case step(direction: Int?)
}

/// What a press does again while the previous one still plays.
public enum RetriggerMode: String, Sendable, Hashable, CaseIterable {
    /// The new press stops the binding's previous feedback and starts over.
    case restart
    /// The new press plays on top; both mix.
    case layer
}

/// One binding: an input, when it fires, what it plays, where and with what priority.
public struct InputBinding: Sendable, Hashable {
    /// The input's name (a button, an encoder or an evdev key).
    public var input: String
    public var trigger: InputTrigger
    public var content: InputContent
    /// The actuators to play on; nil for every actuator of the board.
    public var actuators: [String]?
    /// A higher priority preempts lower ones on the actuators it needs; equal ones mix.
    public var priority: Int
    public var retrigger: RetriggerMode
    /// The longest a hold repeats or a held binding plays, whether or not the release is seen.
    public var maximumHold: Duration

    /// Ten seconds: longer than any deliberate hold, short enough that a lost release edge
    /// does not leave an actuator buzzing.
    public static let defaultMaximumHold = Duration.seconds(10)

    public init(input: String, trigger: InputTrigger, content: InputContent, actuators: [String]? = nil, priority: Int = 0,
                retrigger: RetriggerMode = .restart, maximumHold: Duration = InputBinding.defaultMaximumHold) {
        self.input = input
        self.trigger = trigger
        self.content = content
        self.actuators = actuators
        self.priority = priority
        self.retrigger = retrigger
        self.maximumHold = maximumHold
    }
}
