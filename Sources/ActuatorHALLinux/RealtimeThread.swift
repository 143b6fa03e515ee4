import ActuatorHAL
import CDrivers
import SystemPackage

/// Real-time set-up of the calling thread on Linux: SCHED_FIFO, 1 ns timer slack, its stack
/// faulted in, and memory locked as it is touched. Give it to `DeadlineScheduler.startThread(setup:)`.
///
/// Each step is attempted on its own, so a process allowed some but not all of them still gets
/// what it can; the result says which steps the kernel refused and how to allow them.
public struct RealtimeThread: TimingThreadSetup {
    /// The SCHED_FIFO priority used by default: high enough to preempt ordinary and most IRQ-thread
    /// work, below 99 so the kernel's own watchdog and migration threads still run.
    public static let defaultPriority: Int32 = 80

    /// The timer slack asked for, in nanoseconds (the kernel's default is 50 µs).
    public static let timerSlackNanoseconds: UInt = 1

    /// Stack faulted in ahead of the timing path: far deeper than a dispatch ever goes.
    public static let prefaultedStackBytes = 256 * 1024

    /// For the threads that wait on buttons, keys and encoders: one priority below the timing
    /// thread, which they hand their presses to, and no memory lock of their own (the timing
    /// thread's covers the process).
    public static let inputReader = RealtimeThread(priority: defaultPriority - 1, lockingMemory: false)

    /// The SCHED_FIFO priority asked for.
    public var priority: Int32
    /// Whether to lock the process's memory (benchmarks of many threads leave it).
    public var lockingMemory: Bool
    /// The CPU the thread keeps to; nil lets the kernel choose. A thread woken by another (a press
    /// handed from the line's interrupt to its reader, a play from the reader to the timing thread)
    /// starts at once when both run on one CPU; a real-time thread is woken on the CPU it last ran
    /// on, and when that CPU sleeps the wake-up waits for it (on a virtual machine, for the host to
    /// run that virtual CPU again: tens of microseconds). docs/inputs.md.
    public var cpu: Int?

    /// A set-up at `priority`, kept to `cpu` when one is given.
    public init(priority: Int32 = RealtimeThread.defaultPriority, lockingMemory: Bool = true, cpu: Int? = nil) {
        self.priority = priority
        self.lockingMemory = lockingMemory
        self.cpu = cpu
    }

    /// The input readers' set-up (`inputReader`) on `cpu`.
    public static func inputReader(cpu: Int?) -> RealtimeThread {
        RealtimeThread(priority: inputReader.priority, lockingMemory: inputReader.lockingMemory, cpu: cpu)
    }

    /// Keeps the thread to `cpu` when one is given, applies SCHED_FIFO at `priority` and 1 ns
    /// timer slack, faults in `prefaultedStackBytes` of the thread's stack, then (with
    /// `lockingMemory`) `mlockall(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT)`: pages stay resident
    /// from their first touch, so the timing path's stack and buffers — touched before it runs —
    /// never fault again, while the rest of every mapped library is not made resident (plain
    /// `MCL_CURRENT` would, ~90 MB for `play` with full Foundation). Must run on the thread being
    /// configured (memory locking is process-wide).
    public func configureCurrentThread() -> RealtimeSetup {
        var setup = RealtimeSetup(priority: priority)
        if let cpu {
            setup.cpu = cpu
            let affinity = hb_rt_set_current_thread_cpu(Int32(clamping: cpu))
            if affinity != 0 { setup.affinityError = Errno(rawValue: affinity) }
        }
        let fifo = hb_rt_set_current_thread_fifo(priority)
        if fifo != 0 { setup.schedulingError = Errno(rawValue: fifo) }
        let slack = hb_rt_set_current_thread_timer_slack(Self.timerSlackNanoseconds)
        if slack != 0 { setup.timerSlackError = Errno(rawValue: slack) }
        hb_rt_prefault_stack(Self.prefaultedStackBytes)
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
