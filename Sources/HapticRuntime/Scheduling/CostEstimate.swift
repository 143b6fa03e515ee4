/// The learned duration of one kind of action (one cost key): the lead by which its commands are
/// issued early so that the action's effect lands on the deadline.
///
/// A running mean over the first samples, then an exponentially weighted moving average, so the
/// first measurement counts fully but one slow bus transfer later moves the lead only by an eighth.
struct CostEstimate {
    /// The weight of a new sample once the estimate has settled.
    static let smoothing = 1.0 / 8.0

    private(set) var lead: Duration
    private var samples: Int

    /// Starts from `expectedCost`; a zero (unknown) seed is replaced by the first measurement.
    init(expectedCost: Duration) {
        lead = max(expectedCost, .zero)
        samples = expectedCost > .zero ? 1 : 0
    }

    /// Takes `expectedCost` as the seed when nothing, not even a seed, is known yet.
    mutating func offer(expectedCost: Duration) {
        guard samples == 0, expectedCost > .zero else { return }
        lead = expectedCost
        samples = 1
    }

    mutating func record(_ cost: Duration) {
        samples += 1
        let weight = max(1.0 / Double(samples), Self.smoothing)
        let step = Double((max(cost, .zero) - lead).nanoseconds) * weight
        lead = max(lead + .nanoseconds(Int64(step.rounded())), .zero)
    }
}
