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

/// Power transitions of one kind during a run (same transition, same states): how many, the
/// slowest against the budget, and how many overran it. Keeps a long `--loop` summary short.
struct TransitionTally: Encodable, Equatable {
    var transition: String
    var from: String
    var to: String
    var count: Int
    var maximumElapsedMicroseconds: Double
    var budgetMicroseconds: Double
    var overruns: Int

    /// One tally per kind, in the order each kind first happened.
    static func tallies(_ reports: [PowerTransitionReport]) -> [TransitionTally] {
        var tallies: [TransitionTally] = []
        for report in reports {
            let record = TransitionRecord(report)
            if let index = tallies.firstIndex(where: { $0.transition == record.transition && $0.from == record.from && $0.to == record.to }) {
                tallies[index].count += 1
                tallies[index].maximumElapsedMicroseconds = max(tallies[index].maximumElapsedMicroseconds, record.elapsedMicroseconds)
                tallies[index].budgetMicroseconds = max(tallies[index].budgetMicroseconds, record.budgetMicroseconds)
                tallies[index].overruns += record.overran ? 1 : 0
            } else {
                tallies.append(TransitionTally(
                    transition: record.transition, from: record.from, to: record.to, count: 1,
                    maximumElapsedMicroseconds: record.elapsedMicroseconds, budgetMicroseconds: record.budgetMicroseconds,
                    overruns: record.overran ? 1 : 0
                ))
            }
        }
        return tallies
    }

    var text: String {
        let times = count == 1 ? "" : " ×\(count), slowest"
        let overrun = overruns > 0 ? " (\(overruns) OVERRAN)" : ""
        return "\(transition) \(from)→\(to)\(times) \(ContentSummary.number(maximumElapsedMicroseconds)) µs of \(ContentSummary.number(budgetMicroseconds)) µs budget\(overrun)"
    }
}
