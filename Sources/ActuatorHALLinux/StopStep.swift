import ActuatorHAL
import CDrivers

/// A `StopOperation` as the kernel is asked for it: a write message in an `I2C_RDWR` transfer where
/// the adapter has plain I2C, an SMBus command where it speaks SMBus only (i2c-stub, PC SMBus
/// controllers; see `LinuxI2CBus.usesSMBusRegisterAccess`).
public enum StopStep: Sendable, Hashable {
    /// `I2C_RDWR` with one write message of `bytes` to `address`.
    case i2cWrite(address: I2CAddress, bytes: [UInt8])
    /// `I2C_SLAVE` `address`, then SMBus "write byte" of `byte` (a multiplexer's channel select).
    case smbusWriteByte(address: I2CAddress, byte: UInt8)
    /// `I2C_SLAVE` `address`, then SMBus "write byte data": `register` ← `value`.
    case smbusWriteByteData(address: I2CAddress, register: UInt8, value: UInt8)

    /// `operation` encoded for an adapter that speaks SMBus only, or for one with plain I2C.
    public init(_ operation: StopOperation, smbusOnly: Bool) {
        switch operation {
        case .selectChannel(let mux, let mask):
            self = smbusOnly ? .smbusWriteByte(address: mux, byte: mask) : .i2cWrite(address: mux, bytes: [mask])
        case .writeRegister(let chip, let register, let value):
            self = smbusOnly
                ? .smbusWriteByteData(address: chip, register: register, value: value)
                : .i2cWrite(address: chip, bytes: [register, value])
        }
    }

    /// The step for CDrivers, on the i2c-dev descriptor `bus`.
    func cStep(bus: CInt) -> hb_stop_step {
        let (address, kind, bytes): (I2CAddress, hb_stop_protocol, [UInt8]) = switch self {
        case .i2cWrite(let address, let bytes): (address, HB_STOP_I2C_WRITE, bytes)
        case .smbusWriteByte(let address, let byte): (address, HB_STOP_SMBUS_WRITE_BYTE, [byte])
        case .smbusWriteByteData(let address, let register, let value): (address, HB_STOP_SMBUS_WRITE_BYTE_DATA, [register, value])
        }
        return hb_stop_step(
            bus_fd: bus, address: UInt16(address.rawValue), protocol: UInt8(kind.rawValue), length: UInt8(bytes.count),
            bytes: (bytes.first ?? 0, bytes.count > 1 ? bytes[1] : 0)
        )
    }

    /// The step CDrivers describes, or nil for one this type does not know (a recorded line).
    init?(_ step: hb_stop_step) {
        guard let address = I2CAddress(Int(step.address)) else { return nil }
        switch UInt32(step.protocol) {
        case HB_STOP_I2C_WRITE.rawValue where (1...2).contains(step.length):
            self = .i2cWrite(address: address, bytes: Array([step.bytes.0, step.bytes.1].prefix(Int(step.length))))
        case HB_STOP_SMBUS_WRITE_BYTE.rawValue:
            self = .smbusWriteByte(address: address, byte: step.bytes.0)
        case HB_STOP_SMBUS_WRITE_BYTE_DATA.rawValue:
            self = .smbusWriteByteData(address: address, register: step.bytes.0, value: step.bytes.1)
        default:
            return nil
        }
    }
}
