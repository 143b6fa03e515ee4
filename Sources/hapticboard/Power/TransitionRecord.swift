import ActuatorHAL

/// A power transition as commands print it: microseconds taken against the budget.
struct TransitionRecord: Encodable, Equatable {
    var transition: String
    var from: String
    var to: String
    var elapsedMicroseconds: Double
    var budgetMicroseconds: Double
    var overran: Bool

    init(_ report: PowerTransitionReport) {
        transition = report.transition.rawValue
        from = report.from.rawValue
        to = report.to.rawValue
        elapsedMicroseconds = Self.microseconds(report.elapsed)
        budgetMicroseconds = Self.microseconds(report.budget)
        overran = report.overran
    }

    private static func microseconds(_ duration: Duration) -> Double {
        (Double(duration.nanoseconds) / 100).rounded() / 10
    }

    var text: String {
        "\(transition) \(from)→\(to) \(ContentSummary.number(elapsedMicroseconds)) µs of \(ContentSummary.number(budgetMicroseconds)) µs budget\(overran ? " (OVERRAN)" : "")"
    }
}
