import ActuatorHAL

/// A simulated input device's keys: another thread (or the test, before reading) `inject`s a key
/// with the timestamp the kernel would have given it; a reader blocked in `waitForKey` wakes at
/// once. With nothing injected a read waits out its timeout in real time, as an idle device does.
public final class QueuedKeySource: KeyEventSource, @unchecked Sendable {
    public let path: String
    private let condition = ConditionLock()
    private var queue: [KeyEvent] = []
    private var gone = false

    public init(path: String) {
        self.path = path
    }

    /// A press or release of `code` at `timestamp`.
    public func inject(_ code: UInt16, pressed: Bool, at timestamp: MonotonicInstant) {
        condition.withLock {
            queue.append(KeyEvent(code: code, pressed: pressed, timestamp: timestamp))
            condition.signal()
        }
    }

    /// Unplugs the device: reads fail with `.gone` once the queue is empty.
    public func unplug() {
        condition.withLock {
            gone = true
            condition.broadcast()
        }
    }

    public func waitForKey(timeout: Duration) throws(KeySourceError) -> KeyEvent? {
        let deadline = ConditionLock.monotonicNow + max(timeout, .zero)
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty && !gone {
            if !condition.wait(until: deadline) { break }
        }
        if !queue.isEmpty { return queue.removeFirst() }
        if gone { throw .gone(path: path) }
        return nil
    }
}
