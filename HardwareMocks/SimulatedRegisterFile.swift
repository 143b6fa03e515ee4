import ActuatorHAL

/// A generic register-pointer I2C chip, the protocol most sensors and drivers speak: the first
/// byte of a write sets the register pointer, further bytes are stored from there with
/// auto-increment, and reads return registers from the pointer on, also incrementing.
///
/// For tests of buses and switches that need a device at an address but no particular chip.
public final class SimulatedRegisterFile: SimulatedI2CDevice {
    /// The 256 registers.
    public private(set) var registers: [UInt8]
    /// The register the next data byte or read goes to.
    public private(set) var pointer: UInt8 = 0
    /// Every write as received, for asserting which device saw which bytes.
    public private(set) var receivedWrites: [[UInt8]] = []
    /// Set to `false` to make the chip NACK its address (held in reset, unplugged).
    public var acknowledges: Bool = true

    /// A chip whose registers all read `fill` until written.
    public init(fill: UInt8 = 0x00) {
        registers = [UInt8](repeating: fill, count: 256)
    }

    /// Sets a register directly, as the chip itself would (a status bit, a measurement).
    public func store(_ value: UInt8, at register: UInt8) {
        registers[Int(register)] = value
    }

    /// Sets the pointer from the first byte and stores the rest from there.
    public func receive(_ bytes: [UInt8]) throws(I2CError) {
        receivedWrites.append(bytes)
        guard let first = bytes.first else { return }
        pointer = first
        for byte in bytes.dropFirst() {
            registers[Int(pointer)] = byte
            pointer &+= 1
        }
    }

    /// Registers from the pointer on.
    public func transmit(count: Int) throws(I2CError) -> [UInt8] {
        (0..<count).map { _ in
            defer { pointer &+= 1 }
            return registers[Int(pointer)]
        }
    }
}
