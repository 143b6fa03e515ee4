import ActuatorHAL
import HardwareMocks

/// The sim board's virtual clock held to wall-clock pace: a sleep until a virtual instant first
/// waits until the same offset has passed on CLOCK_MONOTONIC, then moves virtual time there. The
/// chip model still advances virtual time by its own bus and settle times, and the pacing, being
/// absolute, absorbs them rather than drifting.
final class PacedClock: MonotonicClock, Sendable {
    private let virtual: VirtualClock
    private let wall = SystemMonotonicClock()
    private let virtualStart: MonotonicInstant
    private let wallStart: MonotonicInstant

    /// Paces `virtual` from now on.
    init(pacing virtual: VirtualClock) {
        self.virtual = virtual
        virtualStart = virtual.now
        wallStart = wall.now
    }

    var now: MonotonicInstant { virtual.now }

    func sleep(until deadline: MonotonicInstant) throws {
        try wall.sleep(until: wallStart + (deadline - virtualStart))
        virtual.advance(to: deadline)
    }
}
