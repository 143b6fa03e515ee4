import ActuatorHAL
import HapticRuntime
import HardwareMocks

/// An engine on the simulated board's virtual clock playing one long continuous event, so that
/// each step of `run(samples:)` is the steady-state work of real-time amplitude samples: the
/// scheduler's dispatch, the engine's mix and the driver's RTP_INPUT write.
public final class SteadyStream {
    /// A 30 s continuous event whose intensity ramps between 0.3 and 1 every 2 s, so every 1 kHz
    /// sample is a new level and a bus write: more samples than any run takes.
    public static let pattern = HapticPattern(
        events: [HapticEvent(type: .hapticContinuous, time: 0, duration: 30, parameters: [.init(.hapticIntensity, 1), .init(.hapticSharpness, 0.5)])],
        parameterCurves: [ParameterCurve(
            .hapticIntensityControl, time: 0,
            controlPoints: (0..<16).map { ControlPoint(time: Double($0) * 2, value: $0.isMultiple(of: 2) ? 0.3 : 1) }
        )]
    )

    public let board = SimulatedBoard()
    public let scheduler: DeadlineScheduler
    public let engine: HapticEngine
    let player: HapticPatternPlayer
    /// Time between samples.
    public let period: Duration

    /// Starts the pattern and runs its first second, so the chip is awake and streaming.
    public init() throws {
        let actuator = SimulatedLRA.actuator(on: board)
        scheduler = DeadlineScheduler(clock: board.clock)
        engine = HapticEngine(
            actuators: [EngineActuator(actuator, name: "main", statusPollInterval: nil)], clock: board.clock, scheduler: scheduler
        )
        try engine.start()
        player = try engine.makePlayer(with: Self.pattern)
        period = .seconds(1 / (player.programs["main"]?.updateRate ?? 1_000))
        try player.start(atTime: 0)
        scheduler.run(until: board.clock.now + .seconds(1))
    }

    /// Plays the next `samples` sample periods.
    public func run(samples: Int) {
        scheduler.run(until: board.clock.now + period * samples)
    }
}
