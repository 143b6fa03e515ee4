import ActuatorHAL

/// A device model on a `SimulatedI2CBus`. The bus calls it once per message of a transaction,
/// in order, as the real device would see them on the wire.
public protocol SimulatedI2CDevice: AnyObject {
    /// Whether the device acknowledges its address right now (a chip with EN low still ACKs).
    var acknowledges: Bool { get }
    /// The master wrote `bytes` (without the address byte).
    func receive(_ bytes: [UInt8]) throws(I2CError)
    /// The master reads `count` bytes.
    func transmit(count: Int) throws(I2CError) -> [UInt8]
}
