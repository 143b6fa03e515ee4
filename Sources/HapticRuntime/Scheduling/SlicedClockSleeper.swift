import ActuatorHAL

/// The fallback for clocks that cannot interrupt a sleep: sleeps on the clock in slices of at most
/// a millisecond and checks for an interrupt between slices, so an earlier command is noticed
/// within a slice. Only used while something is scheduled; with nothing scheduled the timing
/// thread waits on a condition and costs nothing.
final class SlicedClockSleeper: InterruptibleSleeper, @unchecked Sendable {
    static let slice = Duration.milliseconds(1)

    private let clock: any MonotonicClock
    private let lock = Lock()
    /// Guarded by `lock`.
    private var interruptPending = false

    init(clock: any MonotonicClock) {
        self.clock = clock
    }

    @discardableResult
    func sleep(until deadline: MonotonicInstant) throws -> Bool {
        while true {
            if takeInterrupt() { return true }
            let now = clock.now
            if now >= deadline { return false }
            try clock.sleep(until: min(deadline, now + Self.slice))
        }
    }

    func interrupt() {
        lock.withLock { interruptPending = true }
    }

    private func takeInterrupt() -> Bool {
        lock.withLock {
            defer { interruptPending = false }
            return interruptPending
        }
    }
}
