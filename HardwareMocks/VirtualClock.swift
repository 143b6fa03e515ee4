import ActuatorHAL
import Foundation

/// Virtual time for tests and the simulated board, like SwiftNIO's EmbeddedEventLoop: time moves
/// only when told to, so every test is deterministic.
///
/// Two ways to move it:
/// - `advance(by:)` / `advance(to:)` from the test;
/// - `sleep(until:)`: with `sleepAdvancesTime` (the default) a sleeping caller jumps time forward
///   to its deadline at once — right for single-threaded driver code such as "wait 250 µs after
///   EN high". With it off, `sleep(until:)` blocks until another thread advances past the
///   deadline — right for a timing thread under test.
public final class VirtualClock: MonotonicClock, @unchecked Sendable {
    private let condition = NSCondition()
    private var current: MonotonicInstant
    private let sleepAdvancesTime: Bool

    public init(start: MonotonicInstant = .zero, sleepAdvancesTime: Bool = true) {
        current = start
        self.sleepAdvancesTime = sleepAdvancesTime
    }

    public var now: MonotonicInstant {
        condition.lock()
        defer { condition.unlock() }
        return current
    }

    public func sleep(until deadline: MonotonicInstant) {
        condition.lock()
        defer { condition.unlock() }
        if sleepAdvancesTime {
            if deadline > current { current = deadline }
            condition.broadcast()
            return
        }
        while current < deadline {
            condition.wait()
        }
    }

    /// Moves time forward by `duration` and wakes sleepers whose deadline has passed.
    public func advance(by duration: Duration) {
        condition.lock()
        current = current + duration
        condition.broadcast()
        condition.unlock()
    }

    /// Moves time forward to `instant` (never backwards).
    public func advance(to instant: MonotonicInstant) {
        condition.lock()
        if instant > current { current = instant }
        condition.broadcast()
        condition.unlock()
    }
}
