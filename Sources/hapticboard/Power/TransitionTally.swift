import ActuatorHAL

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
