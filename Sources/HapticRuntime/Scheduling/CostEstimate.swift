/// The learned duration of one kind of action (one cost key): the lead by which its commands are
/// issued early so that the action's effect lands on the deadline.
///
/// A running mean over the first samples, then an exponentially weighted moving average, so the
/// first measurement counts fully but one slow bus transfer later moves the lead only by an eighth.
/// A sample is capped at twice the current lead plus `outlierMargin`: an action preempted for
/// milliseconds says nothing about the bus, and would otherwise make the next commands land early.
/// A real, lasting change still gets through, the cap growing with the lead at every sample.
///
/// Kept in whole nanoseconds: it is read for every command the scheduler looks at, and `Duration`
/// arithmetic goes through 128-bit integers.
struct CostEstimate {
    /// The weight of a new sample once the estimate has settled.
    static let smoothing = 1.0 / 8.0
    /// Added to twice the lead to form the cap, so small leads can still grow quickly.
    static let outlierMargin: Int64 = 100_000

    private(set) var leadNanoseconds: Int64
    private var samples: Int

    var lead: Duration { .nanoseconds(leadNanoseconds) }
    /// Whether the lead comes from a seed or a measurement (a zero seed waits for the first).
    var isSeeded: Bool { samples > 0 }

    /// Starts from `expectedCost`; a zero (unknown) seed is replaced by the first measurement.
    init(expectedCost: Duration) {
        leadNanoseconds = max(expectedCost.nanoseconds, 0)
        samples = leadNanoseconds > 0 ? 1 : 0
    }

    /// Takes `expectedCost` as the seed when nothing, not even a seed, is known yet.
    mutating func offer(expectedCost: Duration) {
        guard samples == 0, expectedCost > .zero else { return }
        leadNanoseconds = expectedCost.nanoseconds
        samples = 1
    }

    mutating func record(_ cost: Duration) {
        let measured = max(cost.nanoseconds, 0)
        let sample = samples > 0 ? min(measured, leadNanoseconds * 2 + Self.outlierMargin) : measured
        samples += 1
        let weight = max(1.0 / Double(samples), Self.smoothing)
        let step = Double(sample - leadNanoseconds) * weight
        leadNanoseconds = max(leadNanoseconds + Int64(step.rounded()), 0)
    }
}
