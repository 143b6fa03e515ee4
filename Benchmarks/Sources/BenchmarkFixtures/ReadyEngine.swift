import ActuatorHAL
import ActuatorHALLinux
import Foundation
import HapticRuntime
import HardwareMocks

/// A `HapticEngine` on CLOCK_MONOTONIC with its timing thread running, driving one simulated
/// DRV2605L through a `ZeroCostChip`, already woken and prepared: `startOneClick()` then measures
/// only the engine's, the player's and the scheduler's work between `start()` and the bus.
public final class ReadyEngine {
    /// One transient: its first command is a register write.
    public static let click = HapticPattern(events: [HapticEvent(type: .hapticTransient, time: 0)])
    /// How long a start may take to reach the bus before it counts as lost.
    static let patience: TimeInterval = 2

    public let clock = SystemMonotonicClock()
    public let scheduler: DeadlineScheduler
    public let engine: HapticEngine
    let chip: ZeroCostChip

    /// Starts the timing thread (no real-time request: benchmarks run unprivileged) and wakes the chip.
    public init() throws {
        scheduler = DeadlineScheduler(clock: clock, name: "bench-timing")
        chip = ZeroCostChip(name: "main", configuration: SimulatedLRA.configuration, wall: clock)
        // Idle timeouts far beyond any run and no status poll: every start finds the chip ready
        // and nothing but the measured work touches the bus.
        engine = HapticEngine(
            actuators: [EngineActuator(
                chip.actuator, name: "main", idleTimeouts: IdleTimeouts(standby: .seconds(3_600), sleep: .seconds(7_200)),
                statusPollInterval: nil
            )],
            clock: clock, scheduler: scheduler
        )
        scheduler.startThread()
        try engine.start()
        // The first start wakes and prepares the chip; it is not measured.
        _ = try startOneClick()
    }

    deinit {
        engine.stop()
        scheduler.stopThread()
    }

    /// Makes a player for a click, starts it and waits for its first register write and its end;
    /// returns the time from `start` to that write (nil when none came).
    @discardableResult
    public func startOneClick() throws -> Duration? {
        let player = try engine.makeAdvancedPlayer(with: Self.click)
        let finished = DispatchSemaphore(value: 0)
        player.completionHandler = { _ in finished.signal() }
        chip.bus.arm()
        let requested = clock.now
        try player.start(atTime: 0)
        let wrote = chip.bus.waitForWrite(patience: .seconds(Self.patience))
        _ = finished.wait(timeout: .now() + Self.patience)
        return wrote.map { $0 - requested }
    }
}
