import ActuatorHAL
import FoundationEssentials

/// Turns line edges into input events: software debounce for buttons whose line does not
/// debounce in the kernel, quadrature decoding for encoders, and a cap on edges per line.
///
/// An edge flood (a floating input: thousands of edges a second) is cut at `edgesPerSecond` per
/// line: edges beyond it are dropped and counted, with at most one warning a second per line.
/// Nothing queues: each reader hands its edge straight in, so memory stays bounded whatever
/// the line does (the kernel's own event buffer is bounded and drops the oldest).
public final class InputDecoder: @unchecked Sendable {
    /// Which input a line belongs to and what it is there.
    public enum LineRole: Sendable, Hashable {
        case button(String)
        case encoderA(String)
        case encoderB(String)

        public var input: String {
            switch self {
            case .button(let name), .encoderA(let name), .encoderB(let name): name
            }
        }
    }

    /// Sustained edges per second and line before edges are dropped: four times what an encoder
    /// turned at 200 detents/s makes on one line, far below a floating input.
    public static let defaultEdgesPerSecond = 2_000.0
    public static let edgeBurst = 200.0
    /// The shortest time between two flood warnings of one line.
    public static let warningInterval = Duration.seconds(1)

    private let lock = Lock()
    private var debouncers: [String: SoftwareDebouncer] = [:]
    private var encoders: [String: QuadratureDecoder] = [:]
    private var buckets: [LineRole: TokenBucket] = [:]
    private var dropped: [LineRole: Int] = [:]
    private var lastWarning: [LineRole: MonotonicInstant] = [:]
    private let edgesPerSecond: Double
    private var warningValue: (@Sendable (String) -> Void)?
    /// Called with each flood warning and each lost encoder edge (outside the lock).
    public var warningHandler: (@Sendable (String) -> Void)? {
        get { locked { warningValue } }
        set { locked { warningValue = newValue } }
    }

    /// Buttons with their software debounce (zero where the kernel debounces) and level at the
    /// start; encoders with their lines' levels and transitions per detent.
    public init(buttons: [(name: String, debounce: Duration, initial: LineLevel)],
                encoders: [(name: String, a: LineLevel, b: LineLevel, transitionsPerDetent: Int)],
                edgesPerSecond: Double = InputDecoder.defaultEdgesPerSecond) {
        for button in buttons {
            self.debouncers[button.name] = SoftwareDebouncer(period: max(button.debounce, .zero), initial: button.initial)
        }
        for encoder in encoders {
            self.encoders[encoder.name] = QuadratureDecoder(a: encoder.a, b: encoder.b, transitionsPerDetent: encoder.transitionsPerDetent)
        }
        self.edgesPerSecond = edgesPerSecond
    }

    /// Edges dropped by the flood cap, per input, since the start.
    public var droppedEdges: [String: Int] {
        locked { Dictionary(dropped.map { ($0.key.input, $0.value) }, uniquingKeysWith: +) }
    }

    /// The events `edge` on the line in `role` makes (none, one, or a settled level and one).
    public func receive(_ edge: EdgeEvent, on role: LineRole) -> [InputEvent] {
        var warning: String?
        let events = locked { () -> [InputEvent] in
            var bucket = buckets[role] ?? TokenBucket(rate: edgesPerSecond, burst: Self.edgeBurst, now: edge.timestamp)
            let refused = bucket.take(at: edge.timestamp) != nil
            buckets[role] = bucket
            if refused {
                dropped[role, default: 0] += 1
                if lastWarning[role].map({ edge.timestamp - $0 >= Self.warningInterval }) ?? true {
                    lastWarning[role] = edge.timestamp
                    warning = "input \(role.input): more than \(Int(edgesPerSecond)) edges a second (a floating or noisy line?); \(dropped[role] ?? 0) edge(s) dropped so far"
                }
                return []
            }
            switch role {
            case .button(let name):
                guard var debouncer = debouncers[name] else { return [] }
                let out = debouncer.receive(edge)
                debouncers[name] = debouncer
                return out.map { InputEvent(input: name, kind: $0.edge == .rising ? .press : .release, timestamp: $0.timestamp) }
            case .encoderA(let name), .encoderB(let name):
                guard var decoder = encoders[name] else { return [] }
                let level: LineLevel = edge.edge == .rising ? .high : .low
                let missedBefore = decoder.missedEdges
                let moved: Int
                if case .encoderA = role { moved = decoder.updateA(level) } else { moved = decoder.updateB(level) }
                encoders[name] = decoder
                if decoder.missedEdges > missedBefore, lastWarning[role].map({ edge.timestamp - $0 >= Self.warningInterval }) ?? true {
                    lastWarning[role] = edge.timestamp
                    warning = "encoder \(name): an edge was lost (\(decoder.missedEdges) so far); a detent may be missed"
                }
                return moved == 0 ? [] : [InputEvent(input: name, kind: .step(moved), timestamp: edge.timestamp)]
            }
        }
        if let warning { warningHandler?(warning) }
        return events
    }

    /// Passes `message` to the warning handler.
    func warn(_ message: String) {
        warningHandler?(message)
    }

    /// Levels buttons settled on after a debounce period that ended by `instant`.
    public func settle(at instant: MonotonicInstant) -> [InputEvent] {
        locked {
            var events: [InputEvent] = []
            for name in debouncers.keys.sorted() {
                guard var debouncer = debouncers[name], let edge = debouncer.settle(at: instant) else { continue }
                debouncers[name] = debouncer
                events.append(InputEvent(input: name, kind: edge.edge == .rising ? .press : .release, timestamp: edge.timestamp))
            }
            return events
        }
    }

    /// The earliest instant `settle(at:)` has something to report.
    public var nextDeadline: MonotonicInstant? {
        locked { debouncers.values.compactMap(\.deadline).min() }
    }

    private func locked<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
