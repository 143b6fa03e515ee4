/// How long before a dispatch instant the timing thread stops sleeping and spins: the kernel's
/// wake-up is only trusted to within this margin. It follows the oversleep it observes, growing
/// fast (a late dispatch is worse than a few wasted microseconds) and shrinking slowly, between
/// 20 µs and 500 µs so the spin never costs more than a small, bounded share of a core.
struct SpinWindow {
    static let minimum = Duration.microseconds(20)
    static let maximum = Duration.microseconds(500)
    static let initial = Duration.microseconds(150)

    private(set) var duration = SpinWindow.initial

    /// Adapts to one uninterrupted sleep that woke `oversleep` after the instant it asked for.
    mutating func observe(oversleep: Duration) {
        // Half again the oversleep, plus a floor, covers the usual jitter around one observation.
        let wanted = min(max(max(oversleep, .zero) * 3 / 2 + .microseconds(10), Self.minimum), Self.maximum)
        if wanted > duration {
            duration += (wanted - duration) / 2
        } else {
            duration -= (duration - wanted) / 64
        }
    }
}
