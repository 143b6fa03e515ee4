#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// User plus system CPU time of the whole process (all threads), from getrusage(RUSAGE_SELF).
enum ProcessCPUTime {
    /// The CPU time used so far; zero if the kernel refuses (it cannot for RUSAGE_SELF).
    static var now: Duration {
        var usage = rusage()
        guard getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage) == 0 else { return .zero }
        return duration(usage.ru_utime) + duration(usage.ru_stime)
    }

    /// CPU time the process used while `body` ran.
    static func measure(_ body: () -> Void) -> Duration {
        let before = now
        body()
        return now - before
    }

    private static func duration(_ time: timeval) -> Duration {
        .seconds(Int64(time.tv_sec)) + .microseconds(Int64(time.tv_usec))
    }
}
