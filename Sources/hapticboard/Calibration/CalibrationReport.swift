import ActuatorHAL

/// A calibration result as commands print it.
struct CalibrationReport: Encodable, Equatable {
    /// A_CAL_COMP, A_CAL_BEMF and BEMF_GAIN as the chip holds them.
    var compensation: Int
    var backEMF: Int
    var backEMFGain: Int
    var calibratedAt: String

    init(_ entry: CalibrationStore.Entry) {
        compensation = Int(entry.result.compensation)
        backEMF = Int(entry.result.backEMF)
        backEMFGain = Int(entry.result.backEMFGain)
        calibratedAt = entry.calibratedAt
    }

    var text: String {
        "A_CAL_COMP \(hexByte(UInt8(compensation))), A_CAL_BEMF \(hexByte(UInt8(backEMF))), BEMF_GAIN \(backEMFGain) (calibrated \(calibratedAt))"
    }
}

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
