/// Which of a board's actuators plays which part of a force-feedback effect.
///
/// Like a game pad's two motors: the first is the strong (low-frequency, larger) motor and the
/// left one, the second the weak (high-frequency, smaller) motor and the right one. Rumble's
/// strong magnitude goes to the first, its weak magnitude to the second; the other effects are
/// panned between them by their direction. A board with one actuator plays everything on it.
public struct ForceFeedbackLayout: Sendable, Hashable {
    /// The strong, left actuator.
    public var strong: String
    /// The weak, right actuator; nil on a board with one.
    public var weak: String?

    /// A layout; `weak` equal to `strong` means one actuator.
    public init(strong: String, weak: String?) {
        self.strong = strong
        self.weak = weak == strong ? nil : weak
    }

    /// The first two of `actuators` (board order), or the two named.
    public init?(actuators: [String], strong: String? = nil, weak: String? = nil) {
        guard let first = strong ?? actuators.first else { return nil }
        let second = weak ?? actuators.first { $0 != first }
        self.init(strong: first, weak: second)
    }

    /// Every actuator the layout drives, strong first.
    public var actuators: [String] { [strong] + (weak.map { [$0] } ?? []) }
}
