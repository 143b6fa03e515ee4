import ActuatorHAL

/// A simulated board's virtual clock running in real time: reading it moves virtual time up to the
/// wall-clock time elapsed since pacing began, and a sleep waits on the wall clock for the same
/// offset. The chip model still jumps virtual time ahead by its own bus and settle times; the
/// wall clock then catches up, so the offset never drifts. A timing thread that spins on `now`
/// therefore sees time pass, as on hardware.
public final class PacedClock: MonotonicClock, Sendable {
    private let virtual: VirtualClock
    private let wall: any MonotonicClock
    private let virtualStart: MonotonicInstant
    private let wallStart: MonotonicInstant

    /// Paces `virtual` by `wall` (the system's CLOCK_MONOTONIC in a program) from now on.
    public init(pacing virtual: VirtualClock, by wall: any MonotonicClock) {
        self.virtual = virtual
        self.wall = wall
        virtualStart = virtual.now
        wallStart = wall.now
    }

    public var now: MonotonicInstant {
        virtual.advance(to: virtualStart + (wall.now - wallStart))
        return virtual.now
    }

    public func sleep(until deadline: MonotonicInstant) throws {
        try wall.sleep(until: wallStart + (deadline - virtualStart))
        virtual.advance(to: deadline)
    }
}
