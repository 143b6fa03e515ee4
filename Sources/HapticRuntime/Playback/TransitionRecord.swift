import ActuatorHAL

/// A power transition as reports give it: microseconds taken against the budget.
public struct TransitionRecord: Sendable, Encodable, Equatable {
    public var transition: String
    public var from: String
    public var to: String
    public var elapsedMicroseconds: Double
    public var budgetMicroseconds: Double
    public var overran: Bool

    public init(_ report: PowerTransitionReport) {
        transition = report.transition.rawValue
        from = report.from.rawValue
        to = report.to.rawValue
        elapsedMicroseconds = Self.microseconds(report.elapsed)
        budgetMicroseconds = Self.microseconds(report.budget)
        overran = report.overran
    }

    /// Rounded to a tenth of a microsecond.
    public static func microseconds(_ duration: Duration) -> Double {
        (Double(duration.nanoseconds) / 100).rounded() / 10
    }
}
