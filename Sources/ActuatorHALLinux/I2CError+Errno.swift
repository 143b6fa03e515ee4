#if canImport(Glibc)
import ActuatorHAL
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SystemPackage

extension I2CError {
    /// The typed error for an errno from a failed i2c-dev transfer.
    ///
    /// Adapters report a missing ACK as ENXIO (most, including bcm2835) or EREMOTEIO (i2c-designware,
    /// some SMBus controllers); ETIMEDOUT is a bus held low or stretched past the adapter's timeout.
    public static func transferFailure(_ errno: Errno, bus: String, address: I2CAddress) -> I2CError {
        switch errno.rawValue {
        case ENXIO, EREMOTEIO:
            return .noAcknowledge(bus: bus, address: address)
        case ETIMEDOUT:
            return .timeout(bus: bus, address: address)
        default:
            return .transfer(bus: bus, address: address, errno: errno)
        }
    }
}
