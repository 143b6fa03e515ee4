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
///
/// Only a compile that may take long is moved (`HapticPattern.compilesLong`): switching costs two
/// system calls and a chance of waiting for the CPU, which added 30–55 µs at p50 to a game's
/// rumble update (`hapticboard bench --ff`, a 65 s rumble at a new strength, which compiles in
/// microseconds since its steady stretches are skipped).
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

extension HapticPattern {
    /// The most control points, events and parameter changes a pattern may hold and still count as
    /// quick to compile.
    static let quickToCompileChanges = 64

    /// Whether compiling it may take long enough to matter to other threads: over a second long
    /// and changing its drive throughout — more than `quickToCompileChanges` control points,
    /// events and parameter changes (a 10 s sine a game uploads has 2,000 points; a rumble, two).
    var compilesLong: Bool {
        let changes = parameterCurves.reduce(events.count + parameters.count) { $0 + $1.controlPoints.count }
        return changes > Self.quickToCompileChanges && duration > 1
    }
}
