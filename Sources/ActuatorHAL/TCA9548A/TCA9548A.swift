/// A TI TCA9548A 8-channel I2C switch on a parent bus.
///
/// The chip has one register: a control byte whose bit k connects downstream channel k to the
/// upstream bus (several bits may be set; 0x00, the power-up state, disconnects all). A new
/// selection becomes active at the STOP that ends the write, so selecting and then addressing a
/// device behind the switch are two transfers.
///
/// Use ``channel(_:)`` to get a ``TCA9548AChannel``, which is itself an `I2CBus`. Every transfer
/// on a channel re-selects it first: the switch is shared state that another process, a reset
/// pulse or a glitch can change behind our back, and one extra 2-byte write is cheap next to
/// driving the wrong chip.
///
/// Thread safety: select-then-access pairs are serialised by a lock per switch, so channels of
/// one switch may be used from different threads. That holds only while every user of the parent
/// bus goes through this value (or another lock that covers the parent); the parent itself is
/// not made thread-safe by it.
public final class TCA9548A: @unchecked Sendable {
    /// Channels per switch.
    public static let channelCount = 8
    /// The addresses the A2..A0 strapping pins can give.
    public static let addressRange: ClosedRange<UInt8> = 0x70...0x77

    /// The upstream bus the switch sits on.
    public let parent: any I2CBus
    /// The switch's own address on the parent bus (0x70–0x77).
    public let address: I2CAddress
    /// `"<parent>/mux@0x70"`; channel names extend it.
    public let name: String
    /// Serialises select + access so two channels never interleave on the wire.
    private let lock = Lock()

    /// A switch at `address` on `parent`; no bus traffic until the first access.
    public init(parent: any I2CBus, address: I2CAddress = 0x70) throws(TCA9548AError) {
        guard Self.addressRange.contains(address.rawValue) else {
            throw TCA9548AError.invalidAddress(address)
        }
        self.parent = parent
        self.address = address
        self.name = "\(parent.name)/mux@\(address)"
    }

    /// Downstream channel `index` (0–7) as a bus of its own.
    public func channel(_ index: Int) throws(TCA9548AError) -> TCA9548AChannel {
        guard (0..<Self.channelCount).contains(index) else {
            throw TCA9548AError.invalidChannel(index, mux: name)
        }
        return TCA9548AChannel(mux: self, index: index)
    }

    /// Writes the control byte: bit k connects channel k (0 disconnects all).
    public func select(mask: UInt8) throws(I2CError) {
        lock.lock()
        defer { lock.unlock() }
        try parent.write(address: address, [mask])
    }

    /// Reads the control byte back from the chip.
    public func selectedMask() throws(I2CError) -> UInt8 {
        lock.lock()
        defer { lock.unlock() }
        // A short read is what i2c-dev reports as EIO.
        guard let mask = try parent.transaction(address: address, [.read(count: 1)]).first?.first else {
            throw I2CError.transfer(bus: parent.name, address: address, errno: .ioError)
        }
        return mask
    }

    /// Writes `mask` — one channel's (`TCA9548AChannel.selectMask`), or several at once, which
    /// makes them one electrical bus so a write reaches every device at its address on any of them
    /// (a broadcast) — then runs `body` on the parent, with no other user of this switch in between.
    public func withChannelsSelected<Result>(
        mask: UInt8, _ body: (any I2CBus) throws(I2CError) -> Result
    ) throws(I2CError) -> Result {
        lock.lock()
        defer { lock.unlock() }
        try parent.write(address: address, [mask])
        return try body(parent)
    }
}
