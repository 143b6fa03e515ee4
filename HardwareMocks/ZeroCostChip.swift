import ActuatorHAL

/// A simulated DRV2605-class chip reached through a `ZeroCostBus` and run in real time: what is
/// left between a request and the chip's first register write is the software's own overhead.
/// Benchmarks use it for "call → bus write" figures (`hapticboard bench`, the Benchmarks package).
///
/// The chip keeps its datasheet times (EN to ready, reset) on the board's virtual clock; pacing
/// that clock by `wall` lets the driver's real waits on `wall` satisfy them.
public struct ZeroCostChip {
    /// The simulated board the chip sits on.
    public let board: SimulatedBoard
    /// The bus the driver writes to; `arm()` / `waitForWrite` time the next write.
    public let bus: ZeroCostBus
    /// The actuator over the chip, driven on `wall`.
    public let actuator: DRV2605Actuator

    /// The chip at `address` on `board` (by default a new `sim` board), configured with
    /// `configuration`, its driver waiting on `wall`.
    public init(
        name: String, configuration: DRV2605Configuration, wall: any MonotonicClock, board: SimulatedBoard = SimulatedBoard(),
        address: I2CAddress = SimulatedBoard.chipAddress
    ) {
        self.board = board
        bus = ZeroCostBus(device: board.bus, clock: wall, deviceClock: PacedClock(pacing: board.clock, by: wall))
        let driver = DRV2605(bus: bus, address: address, enableLine: board.enableLine, clock: wall)
        actuator = DRV2605Actuator(name: name, driver: driver, configuration: configuration)
    }
}
