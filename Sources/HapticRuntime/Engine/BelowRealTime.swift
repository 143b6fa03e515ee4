#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs work that takes long and has no deadline — compiling a pattern — below real-time priority
/// when the calling thread has it, and gives the thread its policy and priority back after.
///
/// A SCHED_FIFO thread keeps every ordinary thread of its CPU waiting for as long as it computes:
/// the force-feedback reader (`RealtimeThread.inputReader`) compiling a 65 s ramp a game uploaded
/// took its CPU from the game's other threads for milliseconds (on a one-core Pi Zero, from every
/// thread), while a compile has no deadline to make — the uploader waits for it either way. The
/// timing thread never compiles here (it runs what is compiled), and the work is done outside the
/// engine's lock, so no real-time thread waits on a lock held at ordinary priority.
enum BelowRealTime {
    /// `work`, run at SCHED_OTHER when the calling thread is SCHED_FIFO or SCHED_RR. Should the
    /// kernel refuse the switch, it runs as it is; should it refuse the way back (a process that
    /// lost the right to real-time priority meanwhile), the thread stays ordinary.
    static func run<T>(_ work: () throws -> T) rethrows -> T {
        let thread = pthread_self()
        var policy: Int32 = 0
        var realTime = sched_param()
        guard pthread_getschedparam(thread, &policy, &realTime) == 0, policy == SCHED_FIFO || policy == SCHED_RR else { return try work() }
        var ordinary = sched_param()
        guard pthread_setschedparam(thread, SCHED_OTHER, &ordinary) == 0 else { return try work() }
        defer { _ = pthread_setschedparam(thread, policy, &realTime) }
        return try work()
    }
}
