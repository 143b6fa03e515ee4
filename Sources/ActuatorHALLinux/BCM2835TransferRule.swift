import ActuatorHAL
import CDrivers

/// The transaction shapes a Linux I2C adapter is asked to perform.
///
/// The Raspberry Pi's bcm2835 controller cannot issue a repeated START after a read, so a combined
/// transfer may hold at most one read and it must come last (a register write followed by a read is
/// the common case). `LinuxI2CBus` applies the rule on every adapter so code that works on one board
/// works on a Pi, and refuses anything else before it reaches the kernel.
public enum BCM2835TransferRule {
    /// Throws `I2CError.unsupportedTransaction` when `operations` cannot be sent as one transfer:
    /// empty, more than the kernel's message limit, a message longer than 65,535 bytes or a negative
    /// read, more than one read, or a read that is not the last message.
    public static func check(_ operations: [I2COperation], bus: String) throws(I2CError) {
        if let reason = violation(in: operations) {
            throw .unsupportedTransaction(bus: bus, reason: reason)
        }
    }

    /// The reason `operations` break the rule, or `nil` when they may be sent.
    static func violation(in operations: [I2COperation]) -> String? {
        guard !operations.isEmpty else { return "a transaction needs at least one message" }
        guard operations.count <= Int(HB_I2C_MAX_MESSAGES) else {
            return "\(operations.count) messages exceed the kernel's limit of \(HB_I2C_MAX_MESSAGES) per transfer"
        }
        let readIndices = operations.indices.filter { index in
            if case .read = operations[index] { return true }
            return false
        }
        guard readIndices.count <= 1 else {
            return "\(readIndices.count) reads in one transfer; at most one read is allowed (bcm2835 cannot restart after a read)"
        }
        if let readIndex = readIndices.first, readIndex != operations.count - 1 {
            return "the read must be the last message (bcm2835 cannot restart after a read)"
        }
        for (index, operation) in operations.enumerated() {
            let length: Int
            switch operation {
            case .write(let bytes): length = bytes.count
            case .read(let count): length = count
            }
            guard length >= 0 else { return "message \(index + 1) reads a negative count (\(length))" }
            guard length <= Int(UInt16.max) else {
                return "message \(index + 1) is \(length) bytes; i2c-dev messages are at most \(UInt16.max)"
            }
        }
        return nil
    }
}
