import ActuatorHAL
import CDrivers
import SystemPackage

/// An interruptible sleep to an absolute CLOCK_MONOTONIC instant on a futex word of its own: one
/// system call per sleep (`FUTEX_WAIT_BITSET` with the absolute deadline), and an `interrupt()`
/// costs one only when the thread is asleep.
///
/// Why not a condition variable: glibc takes the mutex back after `pthread_cond_timedwait` marked
/// as contended, so unlocking it made a second, useless system call (a `FUTEX_WAKE` that woke
/// nobody) after every sleep — once a millisecond for a 1 kHz stream. Nor a timerfd: arming,
/// polling and reading it are three or four. One thread sleeps on a sleeper at a time.
public final class FutexSleeper: InterruptibleSleeper, @unchecked Sendable {
    /// Idle, interrupt pending or sleeping (`hb_wake_word_sleep`); changed only atomically.
    private let word: UnsafeMutablePointer<UInt32>

    public init() {
        word = .allocate(capacity: 1)
        word.initialize(to: 0)
    }

    deinit {
        word.deallocate()
    }

    /// Blocks until CLOCK_MONOTONIC reaches `deadline` or until `interrupt()`.
    /// - Returns: `true` when an interrupt ended the sleep.
    /// - Throws: `Errno` if the kernel refuses the wait.
    @discardableResult
    public func sleep(until deadline: MonotonicInstant) throws -> Bool {
        var interrupted: CInt = 0
        let error = hb_wake_word_sleep(word, deadline.nanoseconds, &interrupted)
        guard error == 0 else { throw Errno(rawValue: error) }
        return interrupted != 0
    }

    /// Ends the current or next sleep. Safe from any thread.
    public func interrupt() {
        hb_wake_word_interrupt(word)
    }
}

extension SystemMonotonicClock: InterruptibleSleepClock {
    /// A `FutexSleeper`: one system call per sleep, where a condition variable makes two and a
    /// timerfd three or four, which a 1 kHz stream pays every millisecond.
    public func makeInterruptibleSleeper() throws -> any InterruptibleSleeper {
        FutexSleeper()
    }
}
