/// An interruptible sleep to an absolute CLOCK_MONOTONIC instant on a `ConditionLock`: one futex
/// wait, and one futex wake to interrupt it — the timerfd and eventfd way costs four system calls
/// per sleep (arm, poll, read, and a disarm after an interrupt), once per sample of a 1 kHz stream.
/// For clocks that read CLOCK_MONOTONIC where no futex is at hand: on Linux `SystemMonotonicClock`
/// hands out `FutexSleeper`, which saves the useless wake glibc makes when the mutex is unlocked
/// after a timed-out wait.
public final class MonotonicConditionSleeper: InterruptibleSleeper, @unchecked Sendable {
    private let condition = ConditionLock()
    /// Guarded by `condition`.
    private var interruptPending = false

    public init() {}

    /// Blocks until CLOCK_MONOTONIC reaches `deadline` or until `interrupt()`.
    /// - Returns: `true` when an interrupt ended the sleep.
    @discardableResult
    public func sleep(until deadline: MonotonicInstant) throws -> Bool {
        condition.lock()
        defer {
            interruptPending = false
            condition.unlock()
        }
        while !interruptPending {
            guard condition.wait(until: deadline) else { return false }
        }
        return true
    }

    /// Ends the current or next sleep.
    public func interrupt() {
        condition.withLock {
            interruptPending = true
            condition.signal()
        }
    }
}
