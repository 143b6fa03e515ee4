/// A sleep to an absolute instant that another thread can end early: what a timing thread needs to
/// react at once when new, earlier work arrives while it sleeps for later work.
public protocol InterruptibleSleeper: AnyObject, Sendable {
    /// Blocks until the clock reaches `deadline` or until `interrupt()`, whichever comes first.
    ///
    /// An `interrupt()` that arrives while nobody sleeps ends the next sleep at once, so a wake sent
    /// between "decide to sleep" and "sleep" is never lost.
    /// - Returns: `true` when an interrupt ended the sleep, `false` when the deadline did.
    @discardableResult
    func sleep(until deadline: MonotonicInstant) throws -> Bool

    /// Ends the current sleep, or the next one when none is in progress. Safe from any thread.
    func interrupt()
}

/// A clock that can hand out interruptible sleepers on its own time base.
public protocol InterruptibleSleepClock: MonotonicClock {
    /// A new sleeper for one sleeping thread.
    /// - Throws: when the platform cannot provide one (e.g. out of file descriptors).
    func makeInterruptibleSleeper() throws -> any InterruptibleSleeper
}
