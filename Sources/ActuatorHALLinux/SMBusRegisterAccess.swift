import ActuatorHAL

/// One SMBus register command: what a transaction becomes on an adapter that speaks SMBus only.
public enum SMBusRegisterAccess: Sendable, Hashable {
    /// "read byte data": one register.
    case readByteData(register: UInt8)
    /// "write byte data": one register.
    case writeByteData(register: UInt8, value: UInt8)

    /// The byte-data commands equivalent to `operations` on a register-pointer chip, whose pointer
    /// auto-increments (every DRV260x, TCA-style switch and most sensors):
    /// `[write(register), read(n)]` becomes `n` reads of consecutive registers and
    /// `[write(register, bytes…)]` one write per byte. Adapters such as i2c-stub, i2c-piix4 and other
    /// PC SMBus controllers implement no `I2C_RDWR`, so without this the same driver could not run
    /// on them.
    /// - Throws: `I2CError.unsupportedTransaction` for any other shape (a lone read, several writes,
    ///   a read without a register, a register range past 0xFF).
    public static func commands(for operations: [I2COperation], bus: String) throws(I2CError) -> [SMBusRegisterAccess] {
        func refuse(_ reason: String) -> I2CError {
            .unsupportedTransaction(bus: bus, reason: "the adapter speaks SMBus only (no I2C_FUNC_I2C): \(reason)")
        }
        switch operations.count {
        case 1:
            guard case .write(let bytes) = operations[0], let register = bytes.first, bytes.count >= 2 else {
                throw refuse("a single message must be a register write [register, value…]")
            }
            guard Int(register) + bytes.count - 2 <= 0xFF else { throw refuse("the write runs past register 0xFF") }
            return bytes.dropFirst().enumerated().map { offset, value in
                .writeByteData(register: register + UInt8(offset), value: value)
            }
        case 2:
            guard case .write(let pointer) = operations[0], pointer.count == 1, case .read(let count) = operations[1], count >= 1 else {
                throw refuse("two messages must be a register read [write(register), read(n ≥ 1)]")
            }
            let register = pointer[0]
            guard Int(register) + count - 1 <= 0xFF else { throw refuse("the read runs past register 0xFF") }
            return (0..<count).map { offset in .readByteData(register: register + UInt8(offset)) }
        default:
            throw refuse("\(operations.count) messages have no SMBus equivalent")
        }
    }
}
