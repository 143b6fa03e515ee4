import ActuatorHAL

/// A simulated I2C bus: routes addresses to device models, logs every transaction (so tests can
/// assert exact register sequences, like embedded-hal-mock), and advances the virtual clock by the
/// wire time of each transfer at `speedHz`, so bus cost shows up in timing budgets.
///
/// Faults can be injected: a missing ACK from an address, an error on the n-th transfer, a stuck
/// bus, and a device that disappears (`detach(at:)`). An injected fault stops the transfer before
/// any device sees it, so the device's state is untouched, and it is logged like any other failure.
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
    /// When set, the log keeps only the newest transactions, so a long benchmark or soak run on
    /// the simulated board does not grow with every transfer.
    public var logLimit: Int?
    /// Told of each transaction as it is logged, on the thread that made it: a program can see
    /// when its first write reached the simulated chip (`hapticboard bench`'s cold start).
    public var transactionObserver: ((LoggedTransaction) -> Void)?
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

    private func record(_ entry: LoggedTransaction) {
        log.append(entry)
        log.keepNewest(logLimit)
        transactionObserver?(entry)
    }

    /// Forgets the transaction log.
    public func clearLog() {
        log.removeAll()
    }

    // MARK: Fault injection

    private var faults = I2CFaultInjection()
    /// Transfers started so far, failed ones included; numbers the transfers for `injectError`.
    public private(set) var transferCount = 0

    /// How long a transfer on a stuck bus takes to fail: the adapter's timeout. 25 ms is a model
    /// choice in the range of Linux I2C adapter timeouts (the i2c-dev default is longer; the point is
    /// that a stuck bus costs real time in the caller's budget).
    public var stuckTimeout: Duration = .milliseconds(25)

    /// From now on `address` does not acknowledge (every transfer to it fails with
    /// `.noAcknowledge`) until `clearInjectedFaults()`; the device stays attached.
    public func injectNoAcknowledge(from address: I2CAddress) {
        faults.silentAddresses.insert(address)
    }

    /// Fails transfer number `n` counted from now (1 = the next transfer) and the `times − 1`
    /// transfers after it with `error`, whatever their address.
    public func injectError(_ error: I2CError, onTransfer n: Int, times: Int = 1) {
        let first = transferCount + max(n, 1)
        faults.plannedErrors.append(.init(error: error, transfers: first..<(first + max(times, 0))))
    }

    /// While true, every transfer fails with `.timeout` after advancing the clock by `stuckTimeout`,
    /// as when a device holds SDA low.
    public var isStuck: Bool {
        get { faults.isStuck }
        set { faults.isStuck = newValue }
    }

    /// Removes every injected NACK, planned error and the stuck state (detached devices stay detached).
    public func clearInjectedFaults() {
        faults = I2CFaultInjection()
    }

    /// Bus time an injected failure costs: a missing ACK is noticed at once (as for an absent
    /// device), a timeout costs `stuckTimeout`, any other error the full wire time of the transfer.
    private func timeSpent(failingWith error: I2CError, _ operations: [I2COperation]) -> Duration {
        switch error {
        case .noAcknowledge: return .zero
        case .timeout: return stuckTimeout
        default: return wireTime(of: operations)
        }
    }

    public func transaction(address: I2CAddress, _ operations: [I2COperation]) throws(I2CError) -> [[UInt8]] {
        let start = clock.now
        var readData: [[UInt8]] = []
        transferCount += 1
        // Injected faults are decided before any device sees the transfer.
        if let fault = faults.fault(forTransfer: transferCount, to: address, bus: name) {
            record(LoggedTransaction(time: start, address: address, operations: operations, readData: [], error: fault))
            clock.advance(to: start + timeSpent(failingWith: fault, operations))
            throw fault
        }
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
            record(LoggedTransaction(time: start, address: address, operations: operations, readData: readData, error: error))
            throw error
        }
        record(LoggedTransaction(time: start, address: address, operations: operations, readData: readData, error: nil))
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
        // Without a multiplexer the device at the address is the one that answers, as
        // `combining` would find; every transfer comes this way, so it builds no arrays for it.
        if downstreams.isEmpty { return devices[address] }
        let local = devices[address].map { [$0] } ?? []
        return SharedAddressDevice.combining(local + downstreams.devices(at: address))
    }
}
