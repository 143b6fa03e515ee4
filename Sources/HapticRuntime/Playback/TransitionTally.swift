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
        merged(reports.map { report in
            let record = TransitionRecord(report)
            return TransitionTally(
                transition: record.transition, from: record.from, to: record.to, count: 1,
                maximumElapsedMicroseconds: record.elapsedMicroseconds, budgetMicroseconds: record.budgetMicroseconds,
                overruns: record.overran ? 1 : 0
            )
        })
    }

    /// Tallies of the same kind (transition, from, to) combined: counts and overruns added, the
    /// slowest kept.
    public static func merged(_ tallies: [TransitionTally]) -> [TransitionTally] {
        var merged: [TransitionTally] = []
        for tally in tallies {
            if let index = merged.firstIndex(where: { $0.transition == tally.transition && $0.from == tally.from && $0.to == tally.to }) {
                merged[index].count += tally.count
                merged[index].maximumElapsedMicroseconds = max(merged[index].maximumElapsedMicroseconds, tally.maximumElapsedMicroseconds)
                merged[index].budgetMicroseconds = max(merged[index].budgetMicroseconds, tally.budgetMicroseconds)
                merged[index].overruns += tally.overruns
            } else {
                merged.append(tally)
            }
        }
        return merged
    }
}
