import ActuatorHAL

/// A simulated GPIO input (an interrupt or button line) whose edges the test injects.
///
/// Edges are kept on the virtual clock: `inject(_:)` makes one happen now, `schedule(_:at:)` in the
/// future. `waitForEdge(timeout:)` never waits on wall time: it returns the oldest edge not yet
/// delivered if it has happened, otherwise moves the clock forward to the next scheduled edge
/// within the timeout (and returns it), otherwise moves the clock by the whole timeout and
/// returns `nil` — what a blocked reader would have seen, in no real time at all.
public final class SimulatedInputLine: DigitalInput {
    /// The line's name for reports.
    public let name: String
    /// The level before the first edge.
    public let initialLevel: LineLevel
    /// Every edge injected or scheduled, in time order (delivered or not).
    public private(set) var edges: [EdgeEvent] = []
    private var delivered = 0
    private let clock: VirtualClock

    /// A line at `initial` with no edges, timed by `clock`.
    public init(name: String, initial: LineLevel = .low, clock: VirtualClock) {
        self.name = name
        self.initialLevel = initial
        self.clock = clock
    }

    /// An edge now: the level changes and the event is queued for `waitForEdge`.
    ///
    /// Like the kernel, the event is queued even when the level already matched (a glitch too
    /// short to be read as a level still raises an edge).
    public func inject(_ edge: Edge) {
        schedule(edge, at: clock.now)
    }

    /// An edge at `instant`; an instant already past is taken as now, because virtual time, like
    /// real time, cannot be rewritten behind a reader.
    public func schedule(_ edge: Edge, at instant: MonotonicInstant) {
        let event = EdgeEvent(edge: edge, timestamp: max(instant, clock.now))
        // After every edge at the same instant, so equal-time edges keep their injection order.
        let position = edges.lastIndex { $0.timestamp <= event.timestamp }.map { $0 + 1 } ?? 0
        edges.insert(event, at: max(position, delivered))
    }

    /// Edges that have happened but not been returned by `waitForEdge` yet.
    public var pendingEdges: Int {
        edges[delivered...].prefix { $0.timestamp <= clock.now }.count
    }

    /// The level as of the clock's now.
    public func read() throws(GPIOError) -> LineLevel {
        level(at: clock.now)
    }

    /// The level at `instant`, from the edges up to it.
    public func level(at instant: MonotonicInstant) -> LineLevel {
        guard let last = edges.last(where: { $0.timestamp <= instant }) else { return initialLevel }
        return last.edge == .rising ? .high : .low
    }

    /// The next undelivered edge, moving virtual time to it if it lies within `timeout`;
    /// otherwise moves virtual time by `timeout` and returns `nil`.
    public func waitForEdge(timeout: Duration) throws(GPIOError) -> EdgeEvent? {
        let deadline = clock.now + timeout
        guard delivered < edges.count, edges[delivered].timestamp <= deadline else {
            clock.advance(to: deadline)
            return nil
        }
        let event = edges[delivered]
        delivered += 1
        clock.advance(to: event.timestamp)
        return event
    }
}
