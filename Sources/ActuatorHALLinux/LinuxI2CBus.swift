import ActuatorHAL
import CDrivers
import SystemPackage

/// An I2C adapter through Linux i2c-dev (`/dev/i2c-N`): each transaction is one combined
/// `I2C_RDWR` transfer (repeated STARTs, one STOP), or, on an adapter that speaks SMBus only
/// (i2c-stub, PC SMBus controllers), the equivalent SMBus register commands (`SMBusRegisterAccess`).
///
/// Every transaction is checked against `BCM2835TransferRule` first, on every adapter, so code that
/// runs here also runs on a Raspberry Pi. Not `Sendable`: the descriptor serves one caller at a
/// time; share a bus through an owner that serialises access.
public final class LinuxI2CBus: I2CBus {
    /// The device path, e.g. `/dev/i2c-1`.
    public let name: String
    /// SCL frequency as configured in the devicetree; i2c-dev cannot report it, so the board says it.
    public let speedHz: Int
    /// Whether transactions go out as SMBus byte-data commands because the adapter has no
    /// plain-I2C transfers but does have SMBus byte data.
    public let usesSMBusRegisterAccess: Bool
    /// The open i2c-dev descriptor; `EmergencyStop` and `CrashGuardian` issue stop steps on it.
    let descriptor: CInt
    /// The address the SMBus path selected last on the descriptor, plus one (0: none yet): a
    /// command to the same chip skips selecting it again (`hb_i2c_smbus_write_byte_data`).
    private var selectedAddress: CInt = 0

    /// Opens the i2c-dev node at `path`.
    /// - Throws: `I2CError.open` with the errno (ENOENT: no such bus or i2c-dev not loaded; EACCES:
    ///   add the user to the `i2c` group).
    public init(path: String, speedHz: Int = 100_000) throws(I2CError) {
        var descriptor: CInt = -1
        let error = hb_i2c_open(path, &descriptor)
        guard error == 0 else { throw .open(path: path, errno: Errno(rawValue: error)) }
        self.name = path
        self.speedHz = speedHz
        self.descriptor = descriptor
        // A node that does not answer I2C_FUNCS (not an adapter) keeps combined transfers, so their
        // errors are the kernel's own.
        var bits: UInt = 0
        if hb_i2c_functionality(descriptor, &bits) == 0 {
            let functionality = I2CAdapterFunctionality(rawValue: bits)
            usesSMBusRegisterAccess = !functionality.contains(.plainI2C)
                && functionality.contains([.smbusReadByteData, .smbusWriteByteData])
        } else {
            usesSMBusRegisterAccess = false
        }
    }

    /// Opens `/dev/i2c-<busNumber>`.
    public convenience init(busNumber: Int, speedHz: Int = 100_000) throws(I2CError) {
        try self.init(path: "/dev/i2c-\(busNumber)", speedHz: speedHz)
    }

    deinit {
        // The crash handler must never write to a descriptor number the system may hand out again.
        hb_emergency_disarm(descriptor)
        // Nothing useful can be done about a failed close here; the descriptor is gone either way.
        _ = hb_i2c_close(descriptor)
    }

    /// Sends `operations` to `address` as one `I2C_RDWR` transfer and returns the bytes of each read.
    /// - Throws: `I2CError.unsupportedTransaction` before touching the bus when `BCM2835TransferRule`
    ///   refuses the shape; otherwise the kernel's errno mapped by `I2CError.transferFailure`.
    public func transaction(address: I2CAddress, _ operations: [I2COperation]) throws(I2CError) -> [[UInt8]] {
        try BCM2835TransferRule.check(operations, bus: name)
        if usesSMBusRegisterAccess {
            return try smbusTransaction(address: address, operations)
        }

        // One contiguous buffer holds every message; each message points at its own slice.
        var storage: [UInt8] = []
        var slices: [(isRead: Bool, range: Range<Int>)] = []
        for operation in operations {
            let start = storage.count
            switch operation {
            case .write(let bytes):
                storage.append(contentsOf: bytes)
                slices.append((false, start..<storage.count))
            case .read(let count):
                storage.append(contentsOf: repeatElement(0, count: count))
                slices.append((true, start..<storage.count))
            }
        }
        let descriptor = self.descriptor
        let error = storage.withUnsafeMutableBufferPointer { buffer -> CInt in
            var messages = slices.map { slice in
                hb_i2c_message(
                    address: UInt16(address.rawValue),
                    is_read: slice.isRead ? 1 : 0,
                    length: UInt16(slice.range.count),
                    buffer: buffer.baseAddress.map { $0 + slice.range.lowerBound }
                )
            }
            return hb_i2c_transfer(descriptor, &messages, messages.count)
        }
        guard error == 0 else {
            throw I2CError.transferFailure(Errno(rawValue: error), bus: name, address: address)
        }
        return slices.filter(\.isRead).map { Array(storage[$0.range]) }
    }

    /// Writes one register as one `I2C_RDWR` message (or SMBus write byte data on an SMBus-only
    /// adapter) from stack storage: no allocation, so a real-time sample costs only the ioctl.
    public func writeRegister(address: I2CAddress, register: UInt8, value: UInt8) throws(I2CError) {
        if usesSMBusRegisterAccess {
            try writeByteData(address: address, register: register, value: value)
            return
        }
        var bytes = (register, value)
        let descriptor = self.descriptor
        let error = withUnsafeMutableBytes(of: &bytes) { buffer -> CInt in
            var message = hb_i2c_message(
                address: UInt16(address.rawValue), is_read: 0, length: UInt16(buffer.count),
                buffer: buffer.baseAddress?.assumingMemoryBound(to: UInt8.self)
            )
            return hb_i2c_transfer(descriptor, &message, 1)
        }
        guard error == 0 else { throw I2CError.transferFailure(Errno(rawValue: error), bus: name, address: address) }
    }

    /// `operations` as SMBus byte-data commands; the reads come back as one message's bytes.
    private func smbusTransaction(address: I2CAddress, _ operations: [I2COperation]) throws(I2CError) -> [[UInt8]] {
        var read: [UInt8] = []
        for command in try SMBusRegisterAccess.commands(for: operations, bus: name) {
            switch command {
            case .readByteData(let register):
                read.append(try readByteData(address: address, register: register))
            case .writeByteData(let register, let value):
                try writeByteData(address: address, register: register, value: value)
            }
        }
        return operations.contains { if case .read = $0 { true } else { false } } ? [read] : []
    }

    /// Reads one register with the SMBus "read byte data" protocol (for adapters or tools that
    /// speak SMBus only; `writeRead` is the combined-transfer equivalent).
    public func readByteData(address: I2CAddress, register: UInt8) throws(I2CError) -> UInt8 {
        var value: UInt8 = 0
        let error = hb_i2c_smbus_read_byte_data(descriptor, address.rawValue, register, &value, &selectedAddress)
        guard error == 0 else { throw I2CError.transferFailure(Errno(rawValue: error), bus: name, address: address) }
        return value
    }

    /// Writes one register with the SMBus "write byte data" protocol.
    public func writeByteData(address: I2CAddress, register: UInt8, value: UInt8) throws(I2CError) {
        let error = hb_i2c_smbus_write_byte_data(descriptor, address.rawValue, register, value, &selectedAddress)
        guard error == 0 else { throw I2CError.transferFailure(Errno(rawValue: error), bus: name, address: address) }
    }

    /// What the adapter supports (the I2C_FUNCS query).
    /// - Throws: `I2CError.open` when the node does not answer the query (not an i2c-dev device).
    public func functionality() throws(I2CError) -> I2CAdapterFunctionality {
        var bits: UInt = 0
        let error = hb_i2c_functionality(descriptor, &bits)
        guard error == 0 else { throw .open(path: name, errno: Errno(rawValue: error)) }
        return I2CAdapterFunctionality(rawValue: bits)
    }
}
