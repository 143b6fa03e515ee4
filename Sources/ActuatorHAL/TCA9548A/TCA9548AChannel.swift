/// One downstream channel of a ``TCA9548A``: an `I2CBus` whose every transaction first selects
/// this channel (and only it) on the switch, then runs on the parent bus.
///
/// A NACK or other fault from the switch itself surfaces as the parent's `I2CError` for the
/// switch's address, so a missing switch is told apart from a missing device behind it.
///
/// Sendable because its own state is immutable and every use of the parent bus happens under the
/// switch's lock.
public final class TCA9548AChannel: I2CBus, @unchecked Sendable {
    /// The switch; its lock serialises this channel against its siblings.
    public let mux: TCA9548A
    /// 0–7.
    public let index: Int
    /// `"<parent>/mux@0x70/ch3"`.
    public let name: String

    init(mux: TCA9548A, index: Int) {
        self.mux = mux
        self.index = index
        self.name = "\(mux.name)/ch\(index)"
    }

    /// The control byte that connects this channel, and only it.
    public var selectMask: UInt8 { UInt8(1) << UInt8(index) }

    /// The parent's clock rate: the switch passes SCL through.
    public var speedHz: Int { mux.parent.speedHz }

    /// The select write plus the access, so timing budgets of drivers behind the switch include it.
    public func wireTime(of operations: [I2COperation]) -> Duration {
        mux.parent.wireTime(of: [.write([0])]) + mux.parent.wireTime(of: operations)
    }

    /// Selects this channel (one write to the switch), then performs `operations` on the parent;
    /// both happen under the switch's lock.
    public func transaction(address: I2CAddress, _ operations: [I2COperation]) throws(I2CError) -> [[UInt8]] {
        try mux.withChannelsSelected(mask: selectMask) { parent throws(I2CError) in
            try parent.transaction(address: address, operations)
        }
    }
}
