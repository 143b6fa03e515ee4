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
    /// How long the compiled program runs, in seconds.
    var duration: Double

    /// How long the picture runs past the program so the ring-down shows.
    static let ringDown = Duration.milliseconds(100)

    /// How far ahead of now the pattern starts, leaving the engine time to wake and prepare the chip.
    static let startDelay = Duration.milliseconds(20)

    /// Plays `pattern` through a playback session on `target`, a chip of `board` opened on
    /// simulated hardware (virtual time, as fast as possible), and simulates the LRA.
    init(_ pattern: HapticPattern, on target: BoardActuator, of board: CommandBoard) throws {
        guard let simulation = board.simulatedChip(of: target), let configuration = target.drv2605?.configuration else {
            throw CommandLineError.renderNeedsChip(actuator: target.name, board: board.name)
        }
        let session = PlaybackSession(board: board.opened, actuators: [target], clock: simulation.clock, pace: .stepped)
        duration = try session.engine.program(for: pattern, on: target.name).duration
        _ = try session.play(
            [PlaybackSession.Item(name: "render", content: LoadedContent(format: .ahap, pattern: pattern), soundFolder: .currentDirectory())],
            options: PlaybackSession.Options(startDelay: Self.startDelay, frameInterval: .milliseconds(10))
        )
        zero = session.firstDeadline ?? simulation.clock.now
        drive = simulation.chip.drive
        let model = try SimulatedLRA.model(resonantFrequency: configuration.ratings.resonantFrequency)
        let end = zero + .nanoseconds(Int64((duration * 1e9).rounded())) + Self.ringDown
        acceleration = model.response(to: drive, from: zero, to: end)
    }
}
