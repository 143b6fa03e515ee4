import ActuatorHAL

/// Power transitions of one kind during a run (same transition, same states): how many, the
/// slowest against the budget, and how many overran it. Keeps a long `--loop` summary short.
public struct TransitionTally: Sendable, Codable, Equatable {
    public var transition: String
    public var from: String
    public var to: String
    public var count: Int
    public var maximumElapsedMicroseconds: Double
    public var budgetMicroseconds: Double
    public var overruns: Int

    /// One tally per kind, in the order each kind first happened.
    public static func tallies(_ reports: [PowerTransitionReport]) -> [TransitionTally] {
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
}
