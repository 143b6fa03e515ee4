import ActuatorHAL

/// One bus operation of a chip's stop table (`ChipStop`): what the crash handler and the crash
/// guardian send, in order, to silence a chip.
public enum StopOperation: Sendable, Hashable, CustomStringConvertible {
    /// One byte to the TCA9548A at `mux`: the channel mask that connects the chip (bit k = channel k).
    case selectChannel(mux: I2CAddress, mask: UInt8)
    /// One register write to the chip at `chip`.
    case writeRegister(chip: I2CAddress, register: UInt8, value: UInt8)

    /// `mux 0x70 ← 0x04`, `0x5A[0x01] ← 0x40`.
    public var description: String {
        switch self {
        case .selectChannel(let mux, let mask): "mux \(mux) ← \(hexByte(mask))"
        case .writeRegister(let chip, let register, let value): "\(chip)[\(hexByte(register))] ← \(hexByte(value))"
        }
    }
}
