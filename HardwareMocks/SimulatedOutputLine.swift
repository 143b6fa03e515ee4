import ActuatorHAL
import SystemPackage

/// A simulated GPIO output (e.g. a DRV2605's EN pin): records every level change against the
/// virtual clock and tells observers (the chip model) about it.
public final class SimulatedOutputLine: DigitalOutput {
    public let name: String
    public private(set) var level: LineLevel
    /// Every level driven, with when (the newest `historyLimit` when that is set).
    public private(set) var history: [(time: MonotonicInstant, level: LineLevel)] = []
    /// When set, `history` keeps only the newest changes, so a long run does not grow with every one.
    public var historyLimit: Int?
    private let clock: any MonotonicClock
    private var observers: [(LineLevel) -> Void] = []

    public init(name: String, initial: LineLevel = .low, clock: any MonotonicClock) {
        self.name = name
        self.level = initial
        self.clock = clock
    }

    /// Calls `observer` with every new level (a chip model watches its EN pin this way).
    public func observe(_ observer: @escaping (LineLevel) -> Void) {
        observers.append(observer)
    }

    /// The error every `set` fails with from now on: the line's GPIO chip went away (a USB or I2C
    /// GPIO expander unplugged: ENODEV) and the line stays at the level last driven. Nil: working.
    public var injectedFailure: Errno?

    public func set(_ level: LineLevel) throws(GPIOError) {
        if let injectedFailure { throw .io(line: name, operation: "set", errno: injectedFailure) }
        self.level = level
        history.append((clock.now, level))
        history.keepNewest(historyLimit)
        for observer in observers { observer(level) }
    }
}
