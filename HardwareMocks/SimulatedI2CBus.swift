import ActuatorHAL

/// A simulated I2C bus: routes addresses to device models, logs every transaction (so tests can
/// assert exact register sequences, like embedded-hal-mock), and advances the virtual clock by the
/// wire time of each transfer at `speedHz`, so bus cost shows up in timing budgets.
public final class SimulatedI2CBus: I2CBus {
    /// One completed (or failed) transaction as the bus saw it.
    public struct LoggedTransaction: Sendable, Hashable {
        public var time: MonotonicInstant
        public var address: I2CAddress
        public var operations: [I2COperation]
        /// Bytes returned for each read, in order.
        public var readData: [[UInt8]]
        public var error: I2CError?
    }

    public let name: String
    public let speedHz: Int
    public let clock: VirtualClock
    public private(set) var log: [LoggedTransaction] = []
    private var devices: [I2CAddress: any SimulatedI2CDevice] = [:]
    private var downstreams: [any SimulatedI2CDownstream] = []

    public init(name: String = "sim", speedHz: Int = 400_000, clock: VirtualClock) {
        self.name = name
        self.speedHz = speedHz
        self.clock = clock
    }

    /// Places `device` at `address`.
    public func attach(_ device: any SimulatedI2CDevice, at address: I2CAddress) {
        devices[address] = device
    }

    /// Removes the device at `address` (it stops acknowledging, as if unplugged).
    public func detach(at address: I2CAddress) {
        devices[address] = nil
    }

    /// Forgets the transaction log.
    public func clearLog() {
        log.removeAll()
    }

    public func transaction(address: I2CAddress, _ operations: [I2COperation]) throws(I2CError) -> [[UInt8]] {
        let start = clock.now
        var readData: [[UInt8]] = []
        do throws(I2CError) {
            guard let device = respondingDevice(at: address), device.acknowledges else {
                throw I2CError.noAcknowledge(bus: name, address: address)
            }
            for operation in operations {
                switch operation {
                case .write(let bytes): try device.receive(bytes)
                case .read(let count): readData.append(try device.transmit(count: count))
                }
            }
        } catch {
            log.append(LoggedTransaction(time: start, address: address, operations: operations, readData: readData, error: error))
            throw error
        }
        log.append(LoggedTransaction(time: start, address: address, operations: operations, readData: readData, error: nil))
        clock.advance(to: start + wireTime(of: operations))
        return readData
    }

    /// Joins `downstream` (e.g. a `TCA9548AModel`'s selected channels) to this bus's wires, so
    /// devices behind it answer too.
    public func attachDownstream(_ downstream: any SimulatedI2CDownstream) {
        downstreams.append(downstream)
    }

    /// Everything wired to `address` right now, on this bus and behind its downstreams.
    private func respondingDevice(at address: I2CAddress) -> (any SimulatedI2CDevice)? {
        let local = devices[address].map { [$0] } ?? []
        return SharedAddressDevice.combining(local + downstreams.devices(at: address))
    }
}
