import SystemPackage

/// A 7-bit I2C device address.
public struct I2CAddress: Sendable, Hashable, Comparable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    public let rawValue: UInt8

    /// Creates an address; values above 0x7F are not 7-bit addresses and yield `nil`.
    public init?(_ value: Int) {
        guard (0...0x7F).contains(value) else { return nil }
        rawValue = UInt8(value)
    }

    public init(integerLiteral value: UInt8) {
        precondition(value <= 0x7F, "I2C addresses are 7-bit")
        rawValue = value
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String {
        let hex = String(rawValue, radix: 16, uppercase: true)
        return "0x" + (hex.count == 1 ? "0" + hex : hex)
    }
}

/// One message of an I2C transaction.
public enum I2COperation: Sendable, Hashable {
    /// Writes these bytes.
    case write([UInt8])
    /// Reads this many bytes.
    case read(count: Int)
}

/// An I2C bus master, in the spirit of embedded-hal's `I2c` trait: every access is a transaction of
/// operations sent as one combined transfer (repeated START between messages, one STOP at the end).
///
/// Implementations: `LinuxI2CBus` (i2c-dev), `TCA9548AChannel` (a multiplexer channel is itself a
/// bus), and `SimulatedI2CBus` in HardwareMocks.
public protocol I2CBus: AnyObject {
    /// SCL frequency in hertz; used to compute the bus cost of writes for timing budgets.
    var speedHz: Int { get }

    /// A human-readable name for errors and reports (`/dev/i2c-1`, `sim`, `mux 0x70 channel 2`).
    var name: String { get }

    /// Performs `operations` against `address` as one transfer and returns the bytes of each
    /// `.read`, in order.
    func transaction(address: I2CAddress, _ operations: [I2COperation]) throws(I2CError) -> [[UInt8]]

    /// Time on the wire for one `transaction` of `operations`, including any transfers the bus adds
    /// (a multiplexer channel's select write). Defaults to `I2CWireTime` at `speedHz`.
    func wireTime(of operations: [I2COperation]) -> Duration

    /// Writes `value` to register `register` of the device at `address`: one message of two bytes,
    /// the shape of every register write (SMBus "write byte data"), issued for each real-time
    /// sample. The default is a `transaction`, which builds arrays; a bus on the timing path
    /// (`LinuxI2CBus`) implements it without allocating.
    func writeRegister(address: I2CAddress, register: UInt8, value: UInt8) throws(I2CError)
}

extension I2CBus {
    /// A one-message `transaction` of `[register, value]`.
    public func writeRegister(address: I2CAddress, register: UInt8, value: UInt8) throws(I2CError) {
        _ = try transaction(address: address, [.write([register, value])])
    }

    /// Writes `bytes` to the device.
    public func write(address: I2CAddress, _ bytes: [UInt8]) throws(I2CError) {
        _ = try transaction(address: address, [.write(bytes)])
    }

    /// Writes `bytes`, then reads `count` bytes in the same transfer (repeated START, read last).
    public func writeRead(address: I2CAddress, _ bytes: [UInt8], readCount count: Int) throws(I2CError) -> [UInt8] {
        let results = try transaction(address: address, [.write(bytes), .read(count: count)])
        return results.first ?? []
    }

    /// Time to clock `operations` over the wire at `speedHz`: START, address byte, data bytes each
    /// with ACK (9 cycles per byte), repeated STARTs and the STOP. The sum is what the datasheet
    /// arithmetic uses (≈ 29 cycles for a one-byte register write: 1 + 9 + 9 × 2 + 1).
    public func wireTime(of operations: [I2COperation]) -> Duration {
        I2CWireTime.duration(of: operations, speedHz: speedHz)
    }
}

/// The arithmetic of I2C wire time, kept in one place so budgets and simulated buses agree.
public enum I2CWireTime {
    /// SCL cycles for `operations`: per message one START (1) + address (9) + 9 per byte; one STOP (1).
    public static func cycles(of operations: [I2COperation]) -> Int {
        var cycles = 1 // STOP
        for operation in operations {
            switch operation {
            case .write(let bytes): cycles += 1 + 9 + 9 * bytes.count
            case .read(let count): cycles += 1 + 9 + 9 * count
            }
        }
        return cycles
    }

    public static func duration(of operations: [I2COperation], speedHz: Int) -> Duration {
        guard speedHz > 0 else { return .zero }
        let nanoseconds = Int64(cycles(of: operations)) * 1_000_000_000 / Int64(speedHz)
        return .nanoseconds(nanoseconds)
    }
}

/// A fault on an I2C bus, carrying errno where the kernel gave one.
public enum I2CError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The addressed device did not acknowledge (ENXIO / EREMOTEIO from i2c-dev).
    case noAcknowledge(bus: String, address: I2CAddress)
    /// The transfer timed out (ETIMEDOUT), e.g. a stuck bus with SDA held low.
    case timeout(bus: String, address: I2CAddress)
    /// Any other kernel error on the transfer (EIO, EAGAIN for arbitration lost, …).
    case transfer(bus: String, address: I2CAddress, errno: Errno)
    /// The bus device itself could not be opened or configured (ENOENT, EACCES, …).
    case open(path: String, errno: Errno)
    /// The adapter cannot perform this transaction shape (e.g. bcm2835: read must be the last message).
    case unsupportedTransaction(bus: String, reason: String)

    /// Whether retrying the same idempotent write may succeed: EIO, EAGAIN and timeouts are
    /// commonly transient (noise, arbitration, clock stretching); a missing ACK or open failure is not.
    public var isTransient: Bool {
        switch self {
        case .timeout: return true
        case .transfer(_, _, let errno): return errno == .ioError || errno == .resourceTemporarilyUnavailable || errno == .timedOut
        case .noAcknowledge, .open, .unsupportedTransaction: return false
        }
    }

    /// The bus whose transfer timed out; nil for any other fault. With SDA held low (a stuck bus)
    /// every later transfer on that bus times out too, so nothing more should wait on it.
    public var timedOutBus: String? {
        switch self {
        case .timeout(let bus, _): return bus
        case .transfer(let bus, _, let errno): return errno == .timedOut ? bus : nil
        case .noAcknowledge, .open, .unsupportedTransaction: return nil
        }
    }

    public var description: String {
        switch self {
        case .noAcknowledge(let bus, let address):
            return "no device acknowledged at \(address) on \(bus)"
        case .timeout(let bus, let address):
            return "I2C transfer to \(address) on \(bus) timed out (bus stuck?)"
        case .transfer(let bus, let address, let errno):
            return "I2C transfer to \(address) on \(bus) failed: \(errno) (errno \(errno.rawValue))"
        case .open(let path, let errno):
            return "cannot open I2C bus \(path): \(errno) (errno \(errno.rawValue))"
        case .unsupportedTransaction(let bus, let reason):
            return "\(bus) cannot perform this transfer: \(reason)"
        }
    }
}
