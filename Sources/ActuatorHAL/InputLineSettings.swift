/// A GPIO input's pull resistor, as the kernel's line bias flags name them.
public enum LineBias: String, Sendable, Hashable, CaseIterable {
    /// Whatever the firmware or devicetree configured.
    case asIs = "as-is"
    /// No pull: the board has its own resistor.
    case disabled
    case pullUp = "pull-up"
    case pullDown = "pull-down"
}

/// How an input line is requested: its bias, which level means "active" (pressed), and how long
/// the line must settle before a new level counts.
///
/// With `activeLow`, levels and edges are reported in active terms: `.high` is active and a
/// `.rising` edge is a press, whatever the wire does (the kernel's `GPIO_V2_LINE_FLAG_ACTIVE_LOW`).
public struct InputLineSettings: Sendable, Hashable {
    public var bias: LineBias
    /// Whether low on the wire is the active level (a button to ground with a pull-up).
    public var activeLow: Bool
    /// How long the line must hold a level before it counts (contact bounce); zero for none.
    public var debounce: Duration

    public init(bias: LineBias = .asIs, activeLow: Bool = false, debounce: Duration = .zero) {
        self.bias = bias
        self.activeLow = activeLow
        self.debounce = debounce
    }
}

/// A `DigitalInput` whose settings the kernel (or the simulation) applies.
public protocol ConfiguredDigitalInput: DigitalInput {
    /// The settings asked for.
    var settings: InputLineSettings { get }
    /// The debounce the line itself applies before edges reach this process: the period asked
    /// for where the kernel debounces (libgpiod 2, uAPI v2 `debounce_period_us`), zero where it
    /// cannot (libgpiod 1.6) and the reader must debounce in software.
    var kernelDebounce: Duration { get }
}
