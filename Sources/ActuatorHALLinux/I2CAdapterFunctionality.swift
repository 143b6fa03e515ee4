import ActuatorHAL
import CDrivers

/// What an I2C adapter can do, as reported by the kernel's I2C_FUNCS query.
public struct I2CAdapterFunctionality: OptionSet, Sendable, Hashable {
    /// The I2C_FUNCS bit mask.
    public let rawValue: UInt

    /// Wraps an I2C_FUNCS bit mask.
    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// Plain I2C messages, so combined `I2C_RDWR` transfers work.
    public static let plainI2C = Self(rawValue: UInt(HB_I2C_FUNC_I2C))
    /// 10-bit addressing.
    public static let tenBitAddressing = Self(rawValue: UInt(HB_I2C_FUNC_10BIT_ADDR))
    /// Protocol mangling flags (ignore NAK, no repeated START, …).
    public static let protocolMangling = Self(rawValue: UInt(HB_I2C_FUNC_PROTOCOL_MANGLING))
    /// SMBus "read byte data" (one register read).
    public static let smbusReadByteData = Self(rawValue: UInt(HB_I2C_FUNC_SMBUS_READ_BYTE_DATA))
    /// SMBus "write byte data" (one register write).
    public static let smbusWriteByteData = Self(rawValue: UInt(HB_I2C_FUNC_SMBUS_WRITE_BYTE_DATA))
}
