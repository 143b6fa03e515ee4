import ActuatorHAL
import CDrivers
import SystemPackage

/// Real-time set-up of the calling thread on Linux: SCHED_FIFO, 1 ns timer slack and locked memory.
/// Give it to `DeadlineScheduler.startThread(setup:)`.
///
/// Each step is attempted on its own, so a process allowed some but not all of them still gets
/// what it can; the result says which steps the kernel refused and how to allow them.
public struct RealtimeThread: TimingThreadSetup {
    /// The SCHED_FIFO priority used by default: high enough to preempt ordinary and most IRQ-thread
    /// work, below 99 so the kernel's own watchdog and migration threads still run.
    public static let defaultPriority: Int32 = 80

    /// The timer slack asked for, in nanoseconds (the kernel's default is 50 µs).
    public static let timerSlackNanoseconds: UInt = 1

    /// The SCHED_FIFO priority asked for.
    public var priority: Int32

    /// A set-up at `priority`.
    public init(priority: Int32 = RealtimeThread.defaultPriority) {
        self.priority = priority
    }

    /// Applies SCHED_FIFO at `priority`, 1 ns timer slack, then `mlockall(MCL_CURRENT | MCL_FUTURE)`.
    /// Must run on the thread being configured (memory locking is process-wide).
    public func configureCurrentThread() -> RealtimeSetup {
        var setup = RealtimeSetup(priority: priority)
        let fifo = hb_rt_set_current_thread_fifo(priority)
        if fifo != 0 { setup.schedulingError = Errno(rawValue: fifo) }
        let slack = hb_rt_set_current_thread_timer_slack(Self.timerSlackNanoseconds)
        if slack != 0 { setup.timerSlackError = Errno(rawValue: slack) }
        var memoryLimit: UInt64 = 0
        let lock = hb_rt_lock_all_memory(&memoryLimit)
        if lock != 0 { setup.memoryLockError = Errno(rawValue: lock) }
        setup.memoryLockLimit = memoryLimit
        var limit: UInt64 = 0
        if hb_rt_priority_limit(&limit) == 0 { setup.priorityLimit = limit }
        return setup
    }
}
