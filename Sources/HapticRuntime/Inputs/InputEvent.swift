import ActuatorHAL

/// What an input did, after debounce and decoding: the bindings act on these.
public struct InputEvent: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// A button became active.
        case press
        /// A button became inactive.
        case release
        /// An encoder moved one detent: +1 forward (clockwise), −1 backward.
        case step(Int)
    }

    /// The input's name in the board file (`select`, `volume`).
    public var input: String
    public var kind: Kind
    /// When the edge behind it happened, by the kernel's timestamp (or the virtual clock).
    public var timestamp: MonotonicInstant

    public init(input: String, kind: Kind, timestamp: MonotonicInstant) {
        self.input = input
        self.kind = kind
        self.timestamp = timestamp
    }

    /// `select press`, `volume step +1`.
    public var description: String {
        switch kind {
        case .press: "\(input) press"
        case .release: "\(input) release"
        case .step(let direction): "\(input) step \(direction > 0 ? "+" : "")\(direction)"
        }
    }
}
