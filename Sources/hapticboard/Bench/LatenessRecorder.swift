import ActuatorHAL
import Foundation
import HapticRuntime

/// Collects lateness samples from whichever thread a timing method wakes on, and lets the
/// benchmark wait for them.
final class LatenessRecorder: @unchecked Sendable {
    private let condition = NSCondition()
    /// Samples later than this count as `lateSamples` (a stream's period).
    private let lateBeyond: Duration?
    /// Guarded by `condition`.
    private var histogram = LatenessHistogram()
    private var late = 0

    /// A recorder; with `lateBeyond`, samples later than it are also counted.
    init(lateBeyond: Duration? = nil) {
        self.lateBeyond = lateBeyond
    }

    /// Adds one sample and wakes a waiting benchmark.
    func record(_ lateness: Duration) {
        condition.lock()
        histogram.record(lateness)
        if let lateBeyond, lateness > lateBeyond { late += 1 }
        condition.signal()
        condition.unlock()
    }

    /// The samples so far.
    var snapshot: LatenessHistogram {
        condition.withLock { histogram }
    }

    /// Samples later than `lateBeyond`.
    var lateSamples: Int {
        condition.withLock { late }
    }

    /// Waits until `count` samples arrived or wall time reaches `giveUp`; false when it gave up.
    func waitForSamples(_ count: Int, giveUp: Date) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while histogram.count < count {
            guard condition.wait(until: giveUp) else { return histogram.count >= count }
        }
        return true
    }
}
