import ActuatorHAL

/// A simulated GPIO input (an interrupt or button line) whose edges the test injects.
///
/// Edges are kept on the virtual clock: `inject(_:)` makes one happen now, `schedule(_:at:)` in the
/// future. `waitForEdge(timeout:)` never waits on wall time: it returns the oldest edge not yet
/// delivered if it has happened, otherwise moves the clock forward to the next scheduled edge
/// within the timeout (and returns it), otherwise moves the clock by the whole timeout and
/// returns `nil` — what a blocked reader would have seen, in no real time at all.
///
/// Injected edges are the wire's. The reader sees them as the kernel would report them with the
/// line's `settings`: inverted for an active-low line, and, when the line debounces in the kernel
/// (`debouncesInKernel`, as uAPI v2 does), filtered: a level counts once the wire has held it for
/// the debounce period and is reported then, only when it differs from the last one reported.
public final class SimulatedInputLine: ConfiguredDigitalInput {
    /// The line's name for reports.
    public let name: String
    /// The level before the first edge.
    public let initialLevel: LineLevel
    /// Every edge injected or scheduled, in time order (delivered or not).
    public private(set) var edges: [EdgeEvent] = []
    private var delivered = 0
    /// Set by `vanish()`: the chip is gone.
    public private(set) var hasVanished = false
    private let clock: VirtualClock
    public let settings: InputLineSettings
    /// The debounce applied before the reader sees edges: the settings' period on a line that
    /// debounces in the kernel, zero on one that does not (a libgpiod 1.6 system).
    public let kernelDebounce: Duration

    /// A line whose wire is at `initial` with no edges, timed by `clock`, requested with
    /// `settings`; `debouncesInKernel` false models libgpiod 1.6, where debounce is the reader's.
    public init(name: String, initial: LineLevel = .low, clock: VirtualClock, settings: InputLineSettings = InputLineSettings(), debouncesInKernel: Bool = true) {
        self.name = name
        self.initialLevel = initial
        self.clock = clock
        self.settings = settings
        kernelDebounce = debouncesInKernel ? max(settings.debounce, .zero) : .zero
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
        edges.insert(event, at: position)
    }

    /// The line's chip goes (a USB GPIO expander unplugged, a gpio-sim device removed): every later
    /// read and wait fails with ENODEV, as the kernel's line request does.
    public func vanish() {
        hasVanished = true
    }

    private func failIfVanished(_ operation: String) throws(GPIOError) {
        if hasVanished { throw .io(line: name, operation: operation, errno: .operationNotSupportedByDevice) }
    }

    /// Edges that have happened but not been returned by `waitForEdge` yet.
    public var pendingEdges: Int {
        let visible = reported
        return visible[min(delivered, visible.count)...].prefix { $0.timestamp <= clock.now }.count
    }

    /// The level as the reader sees it at the clock's now (inverted on an active-low line).
    public func read() throws(GPIOError) -> LineLevel {
        try failIfVanished("read")
        let wire = level(at: clock.now)
        return settings.activeLow ? LineLevel(!wire.isHigh) : wire
    }

    /// The edges as the kernel reports them: debounced when the line debounces, in active terms.
    private var reported: [EdgeEvent] {
        var events: [EdgeEvent] = []
        if kernelDebounce > .zero {
            var last = initialLevel
            for (index, edge) in edges.enumerated() {
                let level: LineLevel = edge.edge == .rising ? .high : .low
                let settled = index + 1 == edges.count || edges[index + 1].timestamp - edge.timestamp >= kernelDebounce
                guard settled, level != last else { continue }
                last = level
                events.append(EdgeEvent(edge: edge.edge, timestamp: edge.timestamp + kernelDebounce))
            }
        } else {
            events = edges
        }
        guard settings.activeLow else { return events }
        return events.map { EdgeEvent(edge: $0.edge == .rising ? .falling : .rising, timestamp: $0.timestamp) }
    }

    /// The wire's level at `instant`, from the edges up to it.
    public func level(at instant: MonotonicInstant) -> LineLevel {
        guard let last = edges.last(where: { $0.timestamp <= instant }) else { return initialLevel }
        return last.edge == .rising ? .high : .low
    }

    /// The next undelivered edge, moving virtual time to it if it lies within `timeout`;
    /// otherwise moves virtual time by `timeout` and returns `nil`.
    public func waitForEdge(timeout: Duration) throws(GPIOError) -> EdgeEvent? {
        try failIfVanished("wait for edge")
        let deadline = clock.now + timeout
        let visible = reported
        guard delivered < visible.count, visible[delivered].timestamp <= deadline else {
            clock.advance(to: deadline)
            return nil
        }
        let event = visible[delivered]
        delivered += 1
        clock.advance(to: event.timestamp)
        return event
    }
}
