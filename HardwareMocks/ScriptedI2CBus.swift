import ActuatorHAL

/// A bus that plays a script, in the style of embedded-hal-mock's `i2c::Mock`: a test states the
/// exact transactions it expects, in order — address, operations, what each read returns or the
/// error the transfer fails with — and the bus answers them one by one. A transaction that is not
/// the next one expected fails (as `I2CError.unsupportedTransaction`, and is remembered even if the
/// driver swallows the error); `verify()` then reports it, and any expected transaction left over.
///
/// Unlike `SimulatedI2CBus`, nothing here behaves like a chip: the script is the whole truth, so
/// a driver's exact register sequence is pinned down transfer by transfer.
public final class ScriptedI2CBus: I2CBus, @unchecked Sendable {
    /// One expected transaction and its outcome.
    public struct Transaction: Sendable, Hashable, CustomStringConvertible {
        public var address: I2CAddress
        public var operations: [I2COperation]
        /// The bytes each `.read` returns, in order.
        public var reads: [[UInt8]]
        /// The error the transfer fails with instead, if any.
        public var error: I2CError?

        public init(address: I2CAddress, operations: [I2COperation], reads: [[UInt8]] = [], error: I2CError? = nil) {
            self.address = address
            self.operations = operations
            self.reads = reads
            self.error = error
        }

        /// A write of `bytes`.
        public static func write(_ address: I2CAddress, _ bytes: [UInt8]) -> Transaction {
            Transaction(address: address, operations: [.write(bytes)])
        }

        /// A write of `bytes`, a repeated START and a read returning `reply`.
        public static func writeRead(_ address: I2CAddress, _ bytes: [UInt8], reply: [UInt8]) -> Transaction {
            Transaction(address: address, operations: [.write(bytes), .read(count: reply.count)], reads: [reply])
        }

        /// The same transfer failing with `error`.
        public func failing(with error: I2CError) -> Transaction {
            var failing = self
            failing.error = error
            failing.reads = []
            return failing
        }

        public var description: String {
            let operations = operations.map { operation in
                switch operation {
                case .write(let bytes): "write " + bytes.map(ScriptedI2CBus.hex).joined(separator: " ")
                case .read(let count): "read \(count)"
                }
            }
            return "\(address): " + operations.joined(separator: ", ")
        }
    }

    /// What went wrong with the script.
    public struct Mismatch: Error, Sendable, Hashable, CustomStringConvertible {
        /// Transactions made that were not the next expected one (or came after the script ended).
        public var unexpected: [String]
        /// Expected transactions never made.
        public var leftOver: [Transaction]

        public var description: String {
            (unexpected + leftOver.map { "expected but not made: \($0)" }).joined(separator: "\n")
        }
    }

    public let name: String
    public let speedHz: Int
    /// Two upper-case hex digits.
    static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }

    private let lock = Lock()
    private var script: [Transaction]
    private var position = 0
    private var unexpected: [String] = []

    /// A bus expecting exactly `script`, in order.
    public init(name: String = "scripted", speedHz: Int = 400_000, expecting script: [Transaction]) {
        self.name = name
        self.speedHz = speedHz
        self.script = script
    }

    public func transaction(address: I2CAddress, _ operations: [I2COperation]) throws(I2CError) -> [[UInt8]] {
        let outcome: Result<[[UInt8]], I2CError> = lock.withLock {
            let made = Transaction(address: address, operations: operations)
            guard position < script.count else {
                unexpected.append("unexpected after the script ended: \(made)")
                return .failure(.unsupportedTransaction(bus: name, reason: "not in the script: \(made)"))
            }
            let next = script[position]
            guard next.address == address, next.operations == operations else {
                unexpected.append("transaction \(position + 1): expected \(next), got \(made)")
                return .failure(.unsupportedTransaction(bus: name, reason: "expected \(next), got \(made)"))
            }
            position += 1
            if let error = next.error { return .failure(error) }
            return .success(next.reads)
        }
        return try outcome.get()
    }

    /// Throws a `Mismatch` naming every unexpected transaction and every expected one never made.
    public func verify() throws(Mismatch) {
        let (unexpected, leftOver) = lock.withLock { (self.unexpected, Array(script[position...])) }
        guard unexpected.isEmpty, leftOver.isEmpty else { throw Mismatch(unexpected: unexpected, leftOver: leftOver) }
    }
}
