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
    /// Each chip with its EN line, the shared bus and clock, in the order given.
    public let chipBoards: [SimulatedBoard]
    /// The switch channel of each chip.
    public let channels: [Int]

    /// The chips.
    public var chips: [DRV2605Model] { chipBoards.map(\.chip) }
    /// Their EN lines, which start low.
    public var enableLines: [SimulatedOutputLine] { chipBoards.map(\.enableLine) }

    /// `count` chips of `variant` on channels 0, 1, … of the switch.
    public convenience init(chips count: Int, variant: DRV2605Model.Variant = .drv2605L, speedHz: Int = 400_000) throws(TCA9548AError) {
        try self.init(channels: Array(0..<count), variants: Array(repeating: variant, count: count), speedHz: speedHz)
    }

    /// A chip of `variants[k]` on switch channel `channels[k]` for each k, on a bus clocked at `speedHz`.
    public init(channels: [Int], variants: [DRV2605Model.Variant], speedHz: Int = 400_000) throws(TCA9548AError) {
        mux = try TCA9548AModel(address: Self.muxAddress)
        for channel in channels where !mux.channels.indices.contains(channel) {
            throw .invalidChannel(channel, mux: "mux@\(Self.muxAddress)")
        }
        let clock = VirtualClock()
        let bus = SimulatedI2CBus(name: "sim", speedHz: speedHz, clock: clock)
        mux.attach(to: bus)
        var boards: [SimulatedBoard] = []
        for (channel, variant) in zip(channels, variants) {
            let enableLine = SimulatedOutputLine(name: "EN\(channel)", initial: .low, clock: clock)
            let chip = DRV2605Model(variant: variant, clock: clock, enableLine: enableLine)
            mux.channels[channel].attach(chip, at: SimulatedBoard.chipAddress)
            mux.channels[channel].attach(chip.broadcastReceiver, at: Self.broadcastAddress)
            boards.append(SimulatedBoard(clock: clock, bus: bus, enableLine: enableLine, chip: chip))
        }
        self.clock = clock
        self.bus = bus
        self.channels = channels
        chipBoards = boards
    }
}
