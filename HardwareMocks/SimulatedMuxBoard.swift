import ActuatorHAL

/// Several DRV2605-class chips behind one TCA9548A (0x70) on one simulated bus, one chip per
/// switch channel, each with its own EN line, all on one virtual clock: a game controller's two
/// grips, a four-actuator panel. Each chip answers 0x5A on its channel, and the DRV2605L parts the
/// broadcast address 0x58 too.
public final class SimulatedMuxBoard {
    /// The switch's address.
    public static let muxAddress: I2CAddress = 0x70
    /// The DRV2605 broadcast address.
    public static let broadcastAddress: I2CAddress = 0x58

    /// Virtual time for everything on the board.
    public let clock: VirtualClock
    /// The bus the switch sits on, named "sim".
    public let bus: SimulatedI2CBus
    /// The switch.
    public let mux: TCA9548AModel
    /// Each chip with its EN line, the shared bus and clock, in the order added.
    public private(set) var chipBoards: [SimulatedBoard] = []
    /// The switch channel of each chip.
    public private(set) var channels: [Int] = []

    /// The chips.
    public var chips: [DRV2605Model] { chipBoards.map(\.chip) }
    /// Their EN lines, which start low.
    public var enableLines: [SimulatedOutputLine] { chipBoards.map(\.enableLine) }

    /// The switch alone on a bus clocked at `speedHz`, on `clock`; add chips with `addChip`.
    public init(speedHz: Int = 400_000, clock: VirtualClock = VirtualClock()) throws(TCA9548AError) {
        mux = try TCA9548AModel(address: Self.muxAddress)
        self.clock = clock
        bus = SimulatedI2CBus(name: "sim", speedHz: speedHz, clock: clock)
        mux.attach(to: bus)
    }

    /// `count` chips of `variant` on channels 0, 1, … of the switch.
    public convenience init(chips count: Int, variant: DRV2605Model.Variant = .drv2605L, speedHz: Int = 400_000) throws(TCA9548AError) {
        try self.init(speedHz: speedHz)
        for channel in 0..<count { try addChip(on: channel, variant: variant) }
    }

    /// A chip of `variant` on switch channel `channel` (free), with an EN line of its own.
    @discardableResult
    public func addChip(on channel: Int, variant: DRV2605Model.Variant = .drv2605L) throws(TCA9548AError) -> SimulatedBoard {
        guard mux.channels.indices.contains(channel), !channels.contains(channel) else {
            throw .invalidChannel(channel, mux: "mux@\(Self.muxAddress)")
        }
        let enableLine = SimulatedOutputLine(name: "EN\(channel)", initial: .low, clock: clock)
        let chip = DRV2605Model(variant: variant, clock: clock, enableLine: enableLine)
        mux.channels[channel].attach(chip, at: SimulatedBoard.chipAddress)
        mux.channels[channel].attach(chip.broadcastReceiver, at: Self.broadcastAddress)
        let board = SimulatedBoard(clock: clock, bus: bus, enableLine: enableLine, chip: chip)
        chipBoards.append(board)
        channels.append(channel)
        return board
    }
}
