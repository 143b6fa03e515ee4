import ActuatorHAL

/// A rate limit: up to `burst` triggers at once, refilled at `rate` per second, on the engine's
/// clock (so tests drive it with virtual time).
struct TokenBucket: Sendable {
    let rate: Double
    let burst: Double
    private var tokens: Double
    private var updated: MonotonicInstant

    init(rate: Double, burst: Double, now: MonotonicInstant) {
        self.rate = rate
        self.burst = burst
        tokens = burst
        updated = now
    }

    /// Takes one token if there is one; otherwise how long until there will be.
    mutating func take(at now: MonotonicInstant) -> Duration? {
        tokens = min(burst, tokens + (now - updated).secondsValue * rate)
        updated = now
        guard tokens < 1 else {
            tokens -= 1
            return nil
        }
        return .nanoseconds(Int64(((1 - tokens) / rate * 1e9).rounded(.up)))
    }
}
