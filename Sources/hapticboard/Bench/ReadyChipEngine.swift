import ActuatorHAL
import ActuatorHALLinux
import HapticRuntime
import HardwareMocks

/// The benchmarks' engine: the sim board's simulated DRV2605L behind a `ZeroCostBus`, on the real
/// clock, with idle timeouts far beyond any run, so every start finds the chip ready and what is
/// measured is software: the driver does everything it does on hardware except wait for the wire.
struct ReadyChipEngine {
    let bus: ZeroCostBus
    let engine: HapticEngine
    /// The actuator's name (`main`).
    let actuator: String

    init(clock: SystemMonotonicClock, scheduler: DeadlineScheduler) throws {
        let hardware = SimulatedBoardHardware()
        let board = try Board.sim.open(on: hardware)
        guard let chip = board.actuators.first?.drv2605, let simulation = hardware.chips[chip.name] else { throw CommandLineError.noActuators(board: board.board.name) }
        // The chip model keeps datasheet times (EN to ready, reset) on its virtual clock; pacing
        // it to the wall clock lets the driver's real waits satisfy them.
        bus = ZeroCostBus(device: simulation.bus, clock: clock, deviceClock: PacedClock(pacing: simulation.clock))
        let driver = DRV2605(bus: bus, address: chip.driver.address, enableLine: simulation.enableLine, clock: clock)
        engine = HapticEngine(
            actuators: [EngineActuator(DRV2605Actuator(name: chip.name, driver: driver, configuration: chip.configuration), name: chip.name,
                                       idleTimeouts: IdleTimeouts(standby: .seconds(3_600), sleep: .seconds(7_200)))],
            clock: clock, scheduler: scheduler
        )
        actuator = chip.name
    }
}
