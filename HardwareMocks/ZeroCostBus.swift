import ActuatorHAL

/// An I2C bus whose transactions cost nothing on the wire: each is handed at once to `device` (a
/// simulated chip that answers as the real one would), and the CLOCK_MONOTONIC time of the first
/// write after `arm()` is kept. What remains between a request and that write is the software's
/// own overhead.
public final class ZeroCostBus: I2CBus, @unchecked Sendable {
    /// The simulated chip's bus, which answers every transaction.
    public let device: any I2CBus
    /// The clock writes are stamped on.
    public let clock: any MonotonicClock
    /// Read before each transaction so a simulated `device` has seen the time pass that the
    /// driver waited on `clock` (a `PacedClock` over the device's virtual clock).
    public let deviceClock: (any MonotonicClock)?
    private let condition = ConditionLock()
    /// Guarded by `condition`.
    private var isArmed = false
    private var firstWrite: MonotonicInstant?
    /// Guarded by `condition`: the stamp of every write while `isRecording`.
    private var isRecording = false
    private var recorded: [MonotonicInstant] = []

    public var speedHz: Int { device.speedHz }
    public var name: String { "zero-cost \(device.name)" }

    /// Answers through `device`, stamping writes on `clock`.
    public init(device: any I2CBus, clock: any MonotonicClock, deviceClock: (any MonotonicClock)? = nil) {
        self.device = device
        self.clock = clock
        self.deviceClock = deviceClock
    }

    public func transaction(address: I2CAddress, _ operations: [I2COperation]) throws(I2CError) -> [[UInt8]] {
        let stamp = clock.now
        _ = deviceClock?.now
        // A register read is a write of its address then a read; only pure writes change the chip.
        let isWrite = operations.allSatisfy { if case .write = $0 { true } else { false } }
        if isWrite {
            condition.withLock {
                if isArmed, firstWrite == nil {
                    firstWrite = stamp
                    condition.broadcast()
                }
                if isRecording { recorded.append(stamp) }
            }
        }
        return try device.transaction(address: address, operations)
    }

    public func wireTime(of operations: [I2COperation]) -> Duration { .zero }

    /// Starts watching for the next write.
    public func arm() {
        condition.withLock {
            isArmed = true
            firstWrite = nil
        }
    }

    /// Starts stamping every write (room for `capacity` made now, so recording allocates
    /// nothing on the writer's thread until then).
    public func startRecording(capacity: Int) {
        condition.withLock {
            recorded.removeAll(keepingCapacity: false)
            recorded.reserveCapacity(capacity)
            isRecording = true
        }
    }

    /// The stamps of every write since `startRecording`, in order; recording stops.
    public func stopRecording() -> [MonotonicInstant] {
        condition.withLock {
            isRecording = false
            defer { recorded = [] }
            return recorded
        }
    }

    /// The time of the first write since `arm()`, waiting up to `patience` of wall time;
    /// nil if none came.
    public func waitForWrite(patience: Duration) -> MonotonicInstant? {
        let giveUp = ConditionLock.monotonicNow + patience
        return condition.withLock {
            while firstWrite == nil {
                guard condition.wait(until: giveUp) else { break }
            }
            isArmed = false
            return firstWrite
        }
    }
}
