import ActuatorHAL

/// Debounce in software, for lines the kernel does not debounce (libgpiod 1.6, evdev keys).
///
/// Leading edge: the first change of level is reported at once, so a press answers without
/// waiting for its contacts to settle; the line is then ignored for `period`. If the line ends that
/// period at another level than the one reported (a release during the bounce), that level is
/// reported when the period ends (`settle(at:)`). A 5 ms burst of bounces is one press.
public struct SoftwareDebouncer: Sendable, Hashable {
    public let period: Duration
    /// The level last reported.
    public private(set) var reported: LineLevel
    /// The level of the last edge seen, reported or not.
    private var wire: LineLevel
    private var quietUntil: MonotonicInstant?

    public init(period: Duration, initial: LineLevel) {
        self.period = period
        reported = initial
        wire = initial
    }

    /// When `settle(at:)` has something to report: the end of the quiet period, while the line
    /// is at another level than the one reported.
    public var deadline: MonotonicInstant? {
        wire != reported ? quietUntil : nil
    }

    /// The edges to report for `event`, in order: a level the previous quiet period ended on,
    /// then the event itself when it changes the reported level outside a quiet period.
    public mutating func receive(_ event: EdgeEvent) -> [EdgeEvent] {
        var out: [EdgeEvent] = []
        if let settled = settle(at: event.timestamp) { out.append(settled) }
        wire = event.edge == .rising ? .high : .low
        if quietUntil.map({ event.timestamp >= $0 }) ?? true, wire != reported {
            reported = wire
            quietUntil = event.timestamp + period
            out.append(event)
        }
        return out
    }

    /// The level the line settled on, when a quiet period that ended by `instant` left it at a
    /// level not reported yet; timestamped at the end of that period.
    public mutating func settle(at instant: MonotonicInstant) -> EdgeEvent? {
        guard let end = quietUntil, instant >= end else { return nil }
        quietUntil = nil
        guard wire != reported else { return nil }
        reported = wire
        quietUntil = end + period
        return EdgeEvent(edge: wire == .high ? .rising : .falling, timestamp: end)
    }
}
