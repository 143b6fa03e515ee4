import CDrivers
import SystemPackage

/// Real-time set-up of the calling thread on Linux: SCHED_FIFO, 1 ns timer slack, its stack
/// faulted in, and memory locked as it is touched.
///
/// Each step is attempted on its own, so a process allowed some but not all of them still gets
/// what it can; the result says which steps the kernel refused and how to allow them.
public enum RealtimeThread {
    /// The SCHED_FIFO priority used by default: high enough to preempt ordinary and most IRQ-thread
    /// work, below 99 so the kernel's own watchdog and migration threads still run.
    public static let defaultPriority: Int32 = 80

    /// The timer slack asked for, in nanoseconds (the kernel's default is 50 µs).
    public static let timerSlackNanoseconds: UInt = 1

    /// Stack faulted in ahead of the timing path: far deeper than a dispatch ever goes.
    public static let prefaultedStackBytes = 256 * 1024

    /// Applies SCHED_FIFO at `priority` and 1 ns timer slack, faults in `prefaultedStackBytes` of
    /// the thread's stack, then (with `lockingMemory`) `mlockall(MCL_CURRENT | MCL_FUTURE |
    /// MCL_ONFAULT)`: pages stay resident from their first touch, so the timing path's stack and
    /// buffers — touched before it runs — never fault again, while the rest of every mapped
    /// library is not made resident (plain `MCL_CURRENT` would, ~90 MB for `play` with full
    /// Foundation). Must run on the thread being configured (memory locking is process-wide).
    public static func configureCurrentThread(priority: Int32 = defaultPriority, lockingMemory: Bool = true) -> RealtimeSetup {
        var setup = RealtimeSetup(priority: priority)
        let fifo = hb_rt_set_current_thread_fifo(priority)
        if fifo != 0 { setup.schedulingError = Errno(rawValue: fifo) }
        let slack = hb_rt_set_current_thread_timer_slack(timerSlackNanoseconds)
        if slack != 0 { setup.timerSlackError = Errno(rawValue: slack) }
        hb_rt_prefault_stack(prefaultedStackBytes)
        if lockingMemory {
            var memoryLimit: UInt64 = 0
            let lock = hb_rt_lock_memory_on_fault(&memoryLimit)
            if lock != 0 { setup.memoryLockError = Errno(rawValue: lock) }
            setup.memoryLockLimit = memoryLimit
        }
        var limit: UInt64 = 0
        if hb_rt_priority_limit(&limit) == 0 { setup.priorityLimit = limit }
        return setup
    }
}

/// What `RealtimeThread.configureCurrentThread` achieved.
public struct RealtimeSetup: Sendable, Hashable {
    /// The SCHED_FIFO priority asked for.
    public var priority: Int32
    /// Why SCHED_FIFO was refused (EPERM: neither CAP_SYS_NICE nor a high enough RLIMIT_RTPRIO).
    public var schedulingError: Errno?
    /// Why `PR_SET_TIMERSLACK` was refused.
    public var timerSlackError: Errno?
    /// Why memory was not locked: EPERM when RLIMIT_MEMLOCK is finite and CAP_IPC_LOCK missing (locking
    /// all future memory under a finite limit would make later allocations fail, so it is not tried);
    /// EINVAL on a kernel without MCL_ONFAULT; otherwise what `mlockall` returned.
    public var memoryLockError: Errno?
    /// The soft RLIMIT_MEMLOCK in bytes when it could be read (`UInt64.max` is unlimited).
    public var memoryLockLimit: UInt64?
    /// The soft RLIMIT_RTPRIO when it could be read (`UInt64.max` is unlimited).
    public var priorityLimit: UInt64?

    /// A result with nothing refused yet.
    public init(priority: Int32) {
        self.priority = priority
    }

    /// True when every step succeeded.
    public var isComplete: Bool { schedulingError == nil && timerSlackError == nil && memoryLockError == nil }

    /// One line naming what was refused and how to allow it; nil when everything succeeded.
    public var warning: String? {
        var refused: [String] = []
        var remedies: [String] = []
        if let schedulingError {
            let limit = priorityLimit.map { $0 == .max ? "unlimited" : String($0) } ?? "unknown"
            refused.append("SCHED_FIFO \(priority) (\(schedulingError), RLIMIT_RTPRIO \(limit))")
            remedies.append("raise RLIMIT_RTPRIO to \(priority) (`ulimit -r \(priority)`, /etc/security/limits.d, or systemd `LimitRTPRIO=\(priority)`) or grant CAP_SYS_NICE")
        }
        if let memoryLockError {
            let limit = memoryLockLimit.map { $0 == .max ? "unlimited" : "\($0) bytes" } ?? "unknown"
            refused.append("mlockall (\(memoryLockError), RLIMIT_MEMLOCK \(limit))")
            remedies.append("raise RLIMIT_MEMLOCK (`ulimit -l unlimited` or systemd `LimitMEMLOCK=infinity`) or grant CAP_IPC_LOCK")
        }
        if let timerSlackError {
            refused.append("PR_SET_TIMERSLACK (\(timerSlackError))")
        }
        guard !refused.isEmpty else { return nil }
        let how = remedies.isEmpty ? "" : "; to allow it \(remedies.joined(separator: "; "))"
        return "real-time timing not permitted: \(refused.joined(separator: ", ")) refused\(how)"
    }
}
