import SystemPackage

/// Readies the calling thread for deadline work where the platform allows it: real-time
/// priority, fine timer slack, locked memory. `DeadlineScheduler.startThread(setup:)` calls it on
/// its timing thread as that starts; the Linux back end's `RealtimeThread` is one.
public protocol TimingThreadSetup: Sendable {
    /// Applies what it can to the calling thread and says what was refused.
    func configureCurrentThread() -> RealtimeSetup
}

/// What a `TimingThreadSetup` achieved on the timing thread.
public struct RealtimeSetup: Sendable, Hashable {
    /// The SCHED_FIFO priority asked for.
    public var priority: Int32
    /// Why SCHED_FIFO was refused (EPERM: neither CAP_SYS_NICE nor a high enough RLIMIT_RTPRIO).
    public var schedulingError: Errno?
    /// Why `PR_SET_TIMERSLACK` was refused.
    public var timerSlackError: Errno?
    /// Why memory was not locked: EPERM when RLIMIT_MEMLOCK is finite and CAP_IPC_LOCK missing (locking
    /// all future memory under a finite limit would make later allocations fail, so it is not tried);
    /// otherwise what `mlockall` returned.
    public var memoryLockError: Errno?
    /// The soft RLIMIT_MEMLOCK in bytes when it could be read (`UInt64.max` is unlimited).
    public var memoryLockLimit: UInt64?
    /// The soft RLIMIT_RTPRIO when it could be read (`UInt64.max` is unlimited).
    public var priorityLimit: UInt64?
    /// The CPU the thread was asked to keep to; nil for any.
    public var cpu: Int?
    /// Why the thread could not be kept to `cpu` (EINVAL: that CPU is not online, or not in the
    /// set a cpuset or `taskset` allows the process).
    public var affinityError: Errno?

    /// A result with nothing refused yet.
    public init(priority: Int32) {
        self.priority = priority
    }

    /// True when every step succeeded.
    public var isComplete: Bool { schedulingError == nil && timerSlackError == nil && memoryLockError == nil && affinityError == nil }

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
        if let affinityError, let cpu {
            refused.append("CPU \(cpu) (\(affinityError))")
            remedies.append("name a CPU that is online and allowed to the process (`nproc`, `taskset -p $$`)")
        }
        guard !refused.isEmpty else { return nil }
        let how = remedies.isEmpty ? "" : "; to allow it \(remedies.joined(separator: "; "))"
        return "real-time timing not permitted: \(refused.joined(separator: ", ")) refused\(how)"
    }
}

/// The timing thread left as any other thread: the default scheduling policy, timer slack and
/// memory. For benchmarks and tools run without real-time permission (`bench --no-realtime`);
/// nothing is asked, so nothing is refused.
public struct OrdinaryTimingThread: TimingThreadSetup {
    public init() {}

    public func configureCurrentThread() -> RealtimeSetup {
        RealtimeSetup(priority: 0)
    }
}
