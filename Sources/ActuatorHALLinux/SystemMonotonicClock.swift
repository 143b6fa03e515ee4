#if canImport(Glibc)
import ActuatorHAL
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SystemPackage

/// The kernel's CLOCK_MONOTONIC: the clock libgpiod edge timestamps and ALSA use, so instants from
/// all of them compare. Sleeps are absolute (`TIMER_ABSTIME`), so periodic deadlines do not drift.
///
/// Stateless, hence `Sendable`.
public final class SystemMonotonicClock: MonotonicClock, Sendable {
    /// The system clock; every instance reads the same kernel clock.
    public init() {}

    /// The current CLOCK_MONOTONIC time.
    public var now: MonotonicInstant {
        var time = timespec()
        // CLOCK_MONOTONIC always exists on Linux and `time` is valid, so this cannot fail.
        _ = clock_gettime(CLOCK_MONOTONIC, &time)
        return MonotonicInstant(nanoseconds: Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec))
    }

    /// Blocks until `deadline`; returns at once when it has passed. A signal interrupting the sleep
    /// resumes it toward the same absolute deadline.
    /// - Throws: `Errno` if the kernel refuses the sleep.
    public func sleep(until deadline: MonotonicInstant) throws {
        // Before the clock's origin is certainly past; the kernel would call it EINVAL.
        guard deadline.nanoseconds > 0 else { return }
        var target = timespec(
            tv_sec: Int(deadline.nanoseconds / 1_000_000_000),
            tv_nsec: Int(deadline.nanoseconds % 1_000_000_000)
        )
        while true {
            let result = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, nil)
            if result == 0 { return }
            if result != EINTR { throw Errno(rawValue: result) }
        }
    }
}
