import ActuatorHAL

/// The simulated board's devices with every chip behind a `ZeroCostBus` on a wall clock: what the
/// driver and everything above it do is measured, not the wire. Benchmarks (`hapticboard bench
/// --service`, `--inputs`, `hotpath-profile trigger`) open boards on it.
public final class ZeroCostBoardHardware: BoardHardware {
    public let simulated = SimulatedBoardHardware()
    private let wall: any MonotonicClock
    /// The bus of the (last) chip opened.
    public private(set) var zeroCostBus: ZeroCostBus?

    public init(wall: any MonotonicClock) {
        self.wall = wall
    }

    public var clock: any MonotonicClock { wall }
    public var soundDecoder: any SoundDecoder { simulated.soundDecoder }

    public func drv2605(at placement: ChipPlacement) throws -> DRV2605 {
        let simulatedDriver = try simulated.drv2605(at: placement)
        guard let board = simulated.chips[placement.actuator] else { return simulatedDriver }
        // The simulation's logs stay bounded: a memory figure is the measured code's, not the mock's.
        board.keepOnlyRecentHistory(1_024)
        // The chip model keeps datasheet times on its virtual clock, paced to the wall clock.
        let bus = ZeroCostBus(device: board.bus, clock: wall, deviceClock: PacedClock(pacing: board.clock, by: wall))
        zeroCostBus = bus
        return DRV2605(bus: bus, address: placement.address, enableLine: board.enableLine, clock: wall)
    }

    /// No sound device: content with sounds plays its haptics only.
    public func openPCM(device: String, format: PCMFormat, for owner: String) throws(PCMError) -> any PCMSink {
        throw .open(device: device, errno: .noSuchFileOrDirectory)
    }

    public func protect(_ chips: [(driver: DRV2605, realtimeInput: DRV2605RealtimeInput)]) throws {}
    public func standDown() {}
}
