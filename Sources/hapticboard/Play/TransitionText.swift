import HapticRuntime

extension TransitionRecord {
    var text: String {
        "\(transition) \(from)→\(to) \(ContentSummary.number(elapsedMicroseconds)) µs of \(ContentSummary.number(budgetMicroseconds)) µs budget\(overran ? " (OVERRAN)" : "")"
    }
}

extension TransitionTally {
    var text: String {
        let times = count == 1 ? "" : " ×\(count), slowest"
        let overrun = overruns > 0 ? " (\(overruns) OVERRAN)" : ""
        return "\(transition) \(from)→\(to)\(times) \(ContentSummary.number(maximumElapsedMicroseconds)) µs of \(ContentSummary.number(budgetMicroseconds)) µs budget\(overrun)"
    }
}
