/// Counters and the lateness histogram of one `DeadlineScheduler`.
public struct SchedulerMetrics: Sendable {
    /// Actions run (including those that threw).
    public var dispatched: Int
    /// Of `dispatched`, those a caller ran the moment it planned them, without queueing them (a
    /// player's opening on a ready actuator: see `DeadlineScheduler`).
    public var ranDirectly: Int
    /// `.transient` commands dropped for being later than the tolerance.
    public var droppedLate: Int
    /// Older `.stream` commands skipped because a newer one of the same stream was also due.
    public var resynced: Int
    /// Errors thrown by actions, plus the scheduler's own refused sleeps.
    public var errors: Int
    /// Actual dispatch minus dispatch instant (deadline − lead) of every action run.
    public var lateness: LatenessHistogram

    /// All zero.
    public init() {
        dispatched = 0
        ranDirectly = 0
        droppedLate = 0
        resynced = 0
        errors = 0
        lateness = LatenessHistogram()
    }
}
