import ActuatorHAL
import HapticRuntime
import HardwareMocks

/// A pattern played as fast as possible on a simulated chip configured like the board's
/// actuator: what the chip would put across the actuator, and what an LRA would do with it.
struct SimulatedPlayback {
    /// The chip's output over time.
    var drive: DriveTimeline
    /// The instant the program's time zero fell on, on the simulated clock.
    var zero: MonotonicInstant
    var acceleration: AccelerationTrace

    /// How long the picture runs past the program so the ring-down shows.
    static let ringDown = Duration.milliseconds(100)

    /// How far ahead of now the pattern starts, leaving the engine time to wake and prepare the chip.
    static let startDelay = Duration.milliseconds(20)

    /// Plays `pattern` through the engine on `target`'s simulated chip (virtual time, as fast as
    /// possible) and simulates the LRA; `duration` is how long the compiled program runs.
    init(_ pattern: HapticPattern, duration: Double, on target: BoardActuator, chip: OpenedChip, simulation: SimulatedBoard) throws {
        let playback = EnginePlayback(targets: [target], clock: simulation.clock, pace: .stepped, idleTimeouts: .default)
        zero = simulation.clock.now + Self.startDelay
        try playback.play([pattern], loop: false, rate: 1, startingAt: zero, frameInterval: .milliseconds(10), stopRequested: { false })
        try playback.finish()
        drive = simulation.chip.drive
        let model = try SimulatedLRA.model(resonantFrequency: chip.configuration.ratings.resonantFrequency)
        let end = zero + .nanoseconds(Int64((duration * 1e9).rounded())) + Self.ringDown
        acceleration = model.response(to: drive, from: zero, to: end)
    }
}
