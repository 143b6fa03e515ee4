import ActuatorHAL

/// The built-in `sim` board: one DRV2605-class chip at 0x5A on a simulated I2C bus, its EN pin on
/// a simulated line named "EN" that starts low (chip off), all on one virtual clock.
public final class SimulatedBoard {
    /// The fixed 7-bit address of every DRV2605-class chip.
    public static let chipAddress: I2CAddress = 0x5A

    /// Virtual time for everything on the board.
    public let clock: VirtualClock
    /// The I2C bus the chip sits on, named "sim".
    public let bus: SimulatedI2CBus
    /// The chip's EN pin.
    public let enableLine: SimulatedOutputLine
    /// The haptic driver chip.
    public let chip: DRV2605Model

    /// A board whose chip is `variant` on a bus clocked at `speedHz`, on `clock` (by default one
    /// of its own).
    public init(variant: DRV2605Model.Variant = .drv2605L, speedHz: Int = 400_000, clock: VirtualClock = VirtualClock()) {
        self.clock = clock
        bus = SimulatedI2CBus(name: "sim", speedHz: speedHz, clock: clock)
        enableLine = SimulatedOutputLine(name: "EN", initial: .low, clock: clock)
        chip = DRV2605Model(variant: variant, clock: clock, enableLine: enableLine)
        bus.attach(chip, at: Self.chipAddress)
    }

    /// One chip of a larger simulated board (`SimulatedMuxBoard`): its parts, already wired, with
    /// the bus and clock it shares with the others.
    public init(clock: VirtualClock, bus: SimulatedI2CBus, enableLine: SimulatedOutputLine, chip: DRV2605Model) {
        self.clock = clock
        self.bus = bus
        self.enableLine = enableLine
        self.chip = chip
    }

    /// Keeps only about the newest `limit` bus transactions, drive changes and EN changes (nil:
    /// everything, as tests read them), so a long run on the simulated board stays bounded.
    public func keepOnlyRecentHistory(_ limit: Int?) {
        bus.logLimit = limit
        chip.driveHistoryLimit = limit
        enableLine.historyLimit = limit
    }
}
