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
    /// How many samples the waiting benchmark waits for: it is woken once, when they are in, not
    /// at every sample, since its wake-ups would count as the measured method's CPU time.
    private var wanted = Int.max

    /// A recorder; with `lateBeyond`, samples later than it are also counted.
    init(lateBeyond: Duration? = nil) {
        self.lateBeyond = lateBeyond
    }

    /// Adds one sample; wakes the waiting benchmark when it is the last one it waits for.
    func record(_ lateness: Duration) {
        condition.lock()
        histogram.record(lateness)
        if let lateBeyond, lateness > lateBeyond { late += 1 }
        if histogram.count >= wanted { condition.signal() }
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
        defer {
            wanted = Int.max
            condition.unlock()
        }
        wanted = count
        while histogram.count < count {
            guard condition.wait(until: giveUp) else { return histogram.count >= count }
        }
        return true
    }
}
