import Foundation
import Synchronization

/// Threads that spin until stopped: the "busy machine" condition of the benchmark.
final class BusyLoad: @unchecked Sendable {
    private let stopRequested = Atomic<Bool>(false)
    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var running = 0

    /// Starts `threads` spinning threads.
    init(threads: Int) {
        guard threads > 0 else { return }
        running = threads
        for index in 0..<threads {
            let thread = Thread { [self] in spin() }
            thread.name = "hapticboard-bench-load-\(index)"
            thread.start()
        }
    }

    /// Stops the threads and waits for them to exit.
    func stop() {
        stopRequested.store(true, ordering: .releasing)
        condition.lock()
        while running > 0 { condition.wait() }
        condition.unlock()
    }

    private func spin() {
        var turns: UInt64 = 0
        while !stopRequested.load(ordering: .relaxed) { turns &+= 1 }
        condition.lock()
        running -= 1
        condition.broadcast()
        condition.unlock()
    }
}
