import ActuatorHAL

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
    private let condition = ConditionLock()
    private var current: MonotonicInstant
    private let sleepAdvancesTime: Bool
    /// Deadlines of the threads blocked in a sleep right now (only without `sleepAdvancesTime`).
    private var blockedSleeperDeadlines: [MonotonicInstant] = []

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
        blockedSleeperDeadlines.append(deadline)
        condition.broadcast()
        while current < deadline {
            condition.wait()
        }
        removeBlockedSleeper(deadline)
    }

    /// `sleep(until:)` that `sleeper.interrupt()` can end early; the sleeper's pending flag is guarded
    /// by the clock's own lock so an interrupt is never lost between the check and the wait.
    fileprivate func sleep(until deadline: MonotonicInstant, sleeper: VirtualClockSleeper) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        defer { sleeper.interruptPending = false }
        if sleeper.interruptPending { return true }
        if sleepAdvancesTime {
            if deadline > current { current = deadline }
            condition.broadcast()
            return false
        }
        blockedSleeperDeadlines.append(deadline)
        condition.broadcast()
        while current < deadline, !sleeper.interruptPending {
            condition.wait()
        }
        removeBlockedSleeper(deadline)
        return sleeper.interruptPending
    }

    private func removeBlockedSleeper(_ deadline: MonotonicInstant) {
        if let index = blockedSleeperDeadlines.firstIndex(of: deadline) {
            blockedSleeperDeadlines.remove(at: index)
        }
    }

    /// Waits until some thread is blocked in a sleep whose deadline is at or before `latest`, and
    /// returns that deadline: how a test knows a timing thread has gone to sleep (only without
    /// `sleepAdvancesTime`). `timeout` is wall time and only keeps a broken test from hanging;
    /// nil when it ran out.
    public func waitForSleeper(deadlineAtOrBefore latest: MonotonicInstant = MonotonicInstant(nanoseconds: .max), timeout: Duration = .seconds(10)) -> MonotonicInstant? {
        let giveUp = ConditionLock.monotonicNow + timeout
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let found = blockedSleeperDeadlines.filter({ $0 <= latest }).min() { return found }
            guard condition.wait(until: giveUp) else { return nil }
        }
    }

    fileprivate func interrupt(_ sleeper: VirtualClockSleeper) {
        condition.lock()
        sleeper.interruptPending = true
        condition.broadcast()
        condition.unlock()
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

extension VirtualClock: InterruptibleSleepClock {
    /// A sleeper on virtual time: with `sleepAdvancesTime` it jumps to the deadline like
    /// `sleep(until:)`; otherwise it blocks until time is advanced past the deadline or it is interrupted.
    public func makeInterruptibleSleeper() -> any InterruptibleSleeper {
        VirtualClockSleeper(clock: self)
    }
}

/// An interruptible sleep on a `VirtualClock`.
final class VirtualClockSleeper: InterruptibleSleeper, @unchecked Sendable {
    private let clock: VirtualClock
    /// Guarded by the clock's lock.
    fileprivate var interruptPending = false

    init(clock: VirtualClock) {
        self.clock = clock
    }

    @discardableResult
    func sleep(until deadline: MonotonicInstant) -> Bool {
        clock.sleep(until: deadline, sleeper: self)
    }

    func interrupt() {
        clock.interrupt(self)
    }
}
