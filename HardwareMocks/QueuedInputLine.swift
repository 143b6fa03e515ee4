import ActuatorHAL

/// A simulated GPIO input on real time, for benchmarks: another thread `inject`s an edge with the
/// timestamp a kernel would have given it, and a reader blocked in `waitForEdge` wakes at once, as
/// it would on a line's event file descriptor. Tests use `SimulatedInputLine`, on virtual time.
public final class QueuedInputLine: ConfiguredDigitalInput, @unchecked Sendable {
    public let name: String
    public let settings: InputLineSettings
    /// Zero: like a libgpiod 1.6 line, whatever debounce there is is the reader's.
    public let kernelDebounce = Duration.zero
    /// The most edges held unread; beyond it the oldest are dropped, as the kernel's buffer does.
    public static let capacity = 64

    private let condition = ConditionLock()
    private var queue: [EdgeEvent] = []
    private var level: LineLevel
    /// Edges dropped because the queue was full.
    public private(set) var overflows = 0

    public init(name: String, initial: LineLevel = .low, settings: InputLineSettings = InputLineSettings()) {
        self.name = name
        self.settings = settings
        level = initial
    }

    /// An edge at `timestamp`: the level changes and a blocked reader wakes.
    public func inject(_ edge: Edge, at timestamp: MonotonicInstant) {
        condition.withLock {
            level = edge == .rising ? .high : .low
            if queue.count == Self.capacity {
                queue.removeFirst()
                overflows += 1
            }
            queue.append(EdgeEvent(edge: edge, timestamp: timestamp))
        }
        // After the lock is given back: a reader woken while it is still held would sleep again
        // on the lock (a second wake-up that no kernel edge costs).
        condition.signal()
    }

    public func read() throws(GPIOError) -> LineLevel {
        condition.withLock { level }
    }

    /// The oldest unread edge, waiting up to `timeout` of wall time for one.
    public func waitForEdge(timeout: Duration) throws(GPIOError) -> EdgeEvent? {
        let deadline = ConditionLock.monotonicNow + max(timeout, .zero)
        return condition.withLock {
            while queue.isEmpty {
                if !condition.wait(until: deadline) { break }
            }
            return queue.isEmpty ? nil : queue.removeFirst()
        }
    }
}
