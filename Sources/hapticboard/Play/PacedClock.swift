import ActuatorHAL
import ActuatorHALLinux
import HardwareMocks

/// The sim board's virtual clock running in real time: reading it moves virtual time up to the
/// wall-clock time elapsed since pacing began, and a sleep waits on CLOCK_MONOTONIC for the same
/// offset. The chip model still jumps virtual time ahead by its own bus and settle times; the
/// wall clock then catches up, so the offset never drifts. A timing thread that spins on `now`
/// therefore sees time pass, as on hardware.
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

    var now: MonotonicInstant {
        virtual.advance(to: virtualStart + (wall.now - wallStart))
        return virtual.now
    }

    func sleep(until deadline: MonotonicInstant) throws {
        try wall.sleep(until: wallStart + (deadline - virtualStart))
        virtual.advance(to: deadline)
    }
}
