#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A mutual-exclusion lock over a pthread mutex, optionally recursive.
///
/// hapticboard's libraries use these instead of Foundation's `NSLock`, `NSRecursiveLock`,
/// `NSCondition` and `Thread`, which exist only in full Foundation: importing it links ICU (some
/// 30 MB) into every static build, and a Raspberry Pi firmware needs none of it.
public final class Lock: @unchecked Sendable {
    /// The mutex itself, for `ConditionLock`'s waits.
    let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    /// A lock; a `recursive` one may be taken again by the thread that holds it.
    public init(recursive: Bool = false) {
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        defer { pthread_mutexattr_destroy(&attributes) }
        if recursive { pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE)) }
        // Fails only for invalid attributes, which these are not.
        pthread_mutex_init(mutex, &attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func lock() {
        pthread_mutex_lock(mutex)
    }

    public func unlock() {
        pthread_mutex_unlock(mutex)
    }

    /// Runs `body` holding the lock.
    public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}
