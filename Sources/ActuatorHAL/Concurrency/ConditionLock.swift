#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A lock with a condition variable whose timed wait is on CLOCK_MONOTONIC: `wait(until:)` takes
/// an absolute `MonotonicInstant`, so a wait neither drifts nor follows changes of the wall clock
/// (Foundation's `NSCondition.wait(until:)` takes a `Date`, on CLOCK_REALTIME). A wait and its
/// wake-up are one futex call each.
public final class ConditionLock: @unchecked Sendable {
    private let mutex = Lock()
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        defer { pthread_condattr_destroy(&attributes) }
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
    }

    public func lock() {
        mutex.lock()
    }

    public func unlock() {
        mutex.unlock()
    }

    /// Runs `body` holding the lock.
    public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        try mutex.withLock(body)
    }

    /// Releases the lock, waits for a signal, takes the lock again. May return spuriously: wait in
    /// a loop on the condition that matters.
    public func wait() {
        pthread_cond_wait(condition, mutex.mutex)
    }

    /// `wait()`, giving up when CLOCK_MONOTONIC reaches `deadline`; false when it gave up.
    @discardableResult
    public func wait(until deadline: MonotonicInstant) -> Bool {
        let nanoseconds = max(deadline.nanoseconds, 0)
        var time = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        return pthread_cond_timedwait(condition, mutex.mutex, &time) != ETIMEDOUT
    }

    /// CLOCK_MONOTONIC now: the clock `wait(until:)` counts on.
    public static var monotonicNow: MonotonicInstant {
        var time = timespec()
        _ = clock_gettime(CLOCK_MONOTONIC, &time)
        return MonotonicInstant(nanoseconds: Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec))
    }

    /// Wakes one waiter.
    public func signal() {
        pthread_cond_signal(condition)
    }

    /// Wakes every waiter.
    public func broadcast() {
        pthread_cond_broadcast(condition)
    }
}
