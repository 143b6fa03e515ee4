import ActuatorHAL
import HardwareMocks

/// The actuator every fixture drives: the sim board's 175 Hz LRA in closed loop on a DRV2605L.
public enum SimulatedLRA {
    /// 2 V rated, 2.8 V overdrive, 175 Hz.
    public static let configuration = DRV2605Configuration(
        ratings: DRV2605Ratings(kind: .lra, loop: .closed, ratedVoltage: 2.0, overdriveVoltage: 2.8, resonantFrequency: 175)
    )

    /// The actuator over `board`'s chip, on the board's virtual clock.
    public static func actuator(on board: SimulatedBoard) -> DRV2605Actuator {
        DRV2605Actuator(
            name: "main", driver: DRV2605(bus: board.bus, enableLine: board.enableLine, clock: board.clock), configuration: configuration
        )
    }
}
