import ActuatorHAL

/// A TI TCA9548A 8-channel I2C switch, modelled from its datasheet (SCPS207, §8.5.4):
/// - one control register, written by a one-byte write (of several bytes the last one is kept)
///   and read back by a read; bit k connects channel k; power-up and RESET give 0x00 (all off);
/// - a device behind channel k is reachable only while bit k is set;
/// - several bits may be set: those channels are then one electrical bus, so devices at the same
///   address on two selected channels both answer (writes reach both, reads are wired-AND; see
///   `SharedAddressDevice`). This is the real chip's behaviour and the reason drivers select one
///   channel at a time.
///
/// The datasheet makes a new selection active at the STOP after the write. The model applies it
/// when the write arrives, which is equivalent: a transfer to another address can only start after
/// that STOP, because a simulated transaction has one address.
public final class TCA9548AModel: SimulatedI2CDevice, SimulatedI2CDownstream {
    /// The strapped address (0x70–0x77).
    public let address: I2CAddress
    /// The control register.
    public private(set) var control: UInt8 = 0x00
    /// The eight downstream channels; attach devices to them.
    public let channels: [SimulatedI2CSegment]

    /// A switch strapped to `address` (0x70–0x77), all channels off.
    public init(address: I2CAddress = 0x70) throws(TCA9548AError) {
        guard TCA9548A.addressRange.contains(address.rawValue) else {
            throw TCA9548AError.invalidAddress(address)
        }
        self.address = address
        self.channels = (0..<TCA9548A.channelCount).map { SimulatedI2CSegment(name: "mux@\(address)/ch\($0)") }
    }

    /// Downstream channel `index` (0–7).
    public func channel(_ index: Int) throws(TCA9548AError) -> SimulatedI2CSegment {
        guard channels.indices.contains(index) else {
            throw TCA9548AError.invalidChannel(index, mux: "mux@\(address)")
        }
        return channels[index]
    }

    /// Puts the switch on `bus` at its address and routes the bus's traffic through its selected
    /// channels.
    public func attach(to bus: SimulatedI2CBus) {
        bus.attach(self, at: address)
        bus.attachDownstream(self)
    }

    /// A low pulse on the RESET pin: all channels off, as at power-up.
    public func reset() {
        control = 0x00
    }

    /// Indices of the channels connected now.
    public var selectedChannels: [Int] {
        channels.indices.filter { control & (1 << $0) != 0 }
    }

    /// Always: the switch has no enable pin that silences it.
    public var acknowledges: Bool { true }

    /// Stores the last byte written in the control register.
    public func receive(_ bytes: [UInt8]) throws(I2CError) {
        // A zero-byte write (SMBus quick command, used by i2cdetect) leaves the register as it is.
        if let last = bytes.last { control = last }
    }

    /// The control register, for every byte read.
    public func transmit(count: Int) throws(I2CError) -> [UInt8] {
        [UInt8](repeating: control, count: count)
    }

    /// The devices at `address` on every selected channel.
    public func devices(at address: I2CAddress) -> [any SimulatedI2CDevice] {
        selectedChannels.flatMap { channels[$0].devices(at: address) }
    }
}
