import ActuatorHAL
import HapticRuntime
import HardwareMocks

/// A program played as fast as possible on a simulated chip configured like the board's
/// actuator: what the chip would put across the actuator, and what an LRA would do with it.
struct SimulatedPlayback {
    /// The chip's output over time.
    var drive: DriveTimeline
    /// The instant the program's time zero fell on, on the simulated clock.
    var zero: MonotonicInstant
    var acceleration: AccelerationTrace

    /// How long the picture runs past the program so the ring-down shows.
    static let ringDown = Duration.milliseconds(100)

    /// Plays `program` on `target`'s simulated chip (it must have one) and simulates the LRA.
    init(_ program: ActuatorProgram, on target: BoardActuator, simulation: SimulatedBoard) throws {
        let player = ProgramPlayer(actuator: target.actuator, clock: simulation.clock, rate: 1, frameInterval: .seconds(1)) { false }
        try target.actuator.wake()
        zero = simulation.clock.now + .nanoseconds(Int64((program.leadTime * 1e9).rounded()))
        _ = try player.play(program, zeroAt: zero)
        _ = try player.waitUntilIdle()
        try target.actuator.standby()
        drive = simulation.chip.drive
        let model = try SimulatedLRA.model(resonantFrequency: target.chip.configuration.ratings.resonantFrequency)
        let end = zero + .nanoseconds(Int64((program.duration * 1e9).rounded())) + Self.ringDown
        acceleration = model.response(to: drive, from: zero, to: max(end, simulation.clock.now))
    }
}
