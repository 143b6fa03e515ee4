#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation
import Synchronization

/// Threads that spin until stopped: the "busy machine" condition of the benchmark. Their CPU time
/// is readable while they run, so a measurement can take it out of the process's total.
final class BusyLoad: @unchecked Sendable {
    private let stopRequested = Atomic<Bool>(false)
    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var running = 0
    /// Guarded by `condition`: each thread's CPU-time clock, once it started.
    private var clocks: [clockid_t] = []

    /// Starts `threads` spinning threads and waits until each has started.
    init(threads: Int) {
        guard threads > 0 else { return }
        running = threads
        for index in 0..<threads {
            let thread = Thread { [self] in spin() }
            thread.name = "hapticboard-bench-load-\(index)"
            thread.start()
        }
        condition.withLock {
            while clocks.count < threads { condition.wait() }
        }
    }

    /// CPU time the spinning threads used so far.
    var cpuTime: Duration {
        condition.withLock {
            clocks.reduce(Duration.zero) { total, clock in
                var time = timespec()
                guard clock_gettime(clock, &time) == 0 else { return total }
                return total + .seconds(Int64(time.tv_sec)) + .nanoseconds(Int64(time.tv_nsec))
            }
        }
    }

    /// Stops the threads and waits for them to exit.
    func stop() {
        stopRequested.store(true, ordering: .releasing)
        condition.lock()
        while running > 0 { condition.wait() }
        clocks = []
        condition.unlock()
    }

    private func spin() {
        var clock = clockid_t()
        if pthread_getcpuclockid(pthread_self(), &clock) == 0 {
            condition.withLock {
                clocks.append(clock)
                condition.broadcast()
            }
        }
        var turns: UInt64 = 0
        while !stopRequested.load(ordering: .relaxed) { turns &+= 1 }
        condition.lock()
        running -= 1
        condition.broadcast()
        condition.unlock()
    }
}
