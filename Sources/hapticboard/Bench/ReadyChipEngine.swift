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
        let zeroCost = ZeroCostChip(name: chip.name, configuration: chip.configuration, wall: clock, board: simulation, address: chip.driver.address)
        bus = zeroCost.bus
        engine = HapticEngine(
            actuators: [EngineActuator(zeroCost.actuator, name: chip.name, idleTimeouts: IdleTimeouts(standby: .seconds(3_600), sleep: .seconds(7_200)))],
            clock: clock, scheduler: scheduler
        )
        actuator = chip.name
    }
}
