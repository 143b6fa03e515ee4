import SystemPackage

/// A logic level on a GPIO line.
public enum LineLevel: Sendable, Hashable {
    case low, high

    public init(_ isHigh: Bool) { self = isHigh ? .high : .low }

    public var isHigh: Bool { self == .high }
}

/// A GPIO line driven by this process (e.g. a DRV2605's EN pin).
public protocol DigitalOutput: AnyObject {
    /// The line's name for reports (`GPIO17`, `gpiochip0:17`, `sim EN`).
    var name: String { get }
    /// Drives the line.
    func set(_ level: LineLevel) throws(GPIOError)
    /// The level last driven.
    var level: LineLevel { get }
}

/// The direction of a level change.
public enum Edge: Sendable, Hashable {
    case rising, falling
}

/// One edge seen on an input line, timestamped by the kernel (or the virtual clock).
public struct EdgeEvent: Sendable, Hashable {
    public var edge: Edge
    public var timestamp: MonotonicInstant

    public init(edge: Edge, timestamp: MonotonicInstant) {
        self.edge = edge
        self.timestamp = timestamp
    }
}

/// A GPIO line read by this process, with edge events.
public protocol DigitalInput: AnyObject {
    var name: String { get }
    /// The current level.
    func read() throws(GPIOError) -> LineLevel
    /// Waits up to `timeout` for the next edge; `nil` when none arrived in time.
    func waitForEdge(timeout: Duration) throws(GPIOError) -> EdgeEvent?
}

/// A fault on a GPIO line, carrying errno where libgpiod gave one.
public enum GPIOError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No chip at this path, or no line with this name on any chip.
    case lineNotFound(String)
    /// Another process (or driver) already holds the line (EBUSY).
    case lineBusy(String)
    /// The chip could not be opened (EACCES: add the user to the `gpio` group).
    case chipOpen(path: String, errno: Errno)
    /// Any other error from the kernel on request, set or read.
    case io(line: String, operation: String, errno: Errno)

    public var description: String {
        switch self {
        case .lineNotFound(let line):
            return "GPIO line \(line) not found (check the name with `gpioinfo`)"
        case .lineBusy(let line):
            return "GPIO line \(line) is busy: another process or driver holds it (see `gpioinfo`)"
        case .chipOpen(let path, let errno):
            return "cannot open GPIO chip \(path): \(errno) (errno \(errno.rawValue))"
        case .io(let line, let operation, let errno):
            return "GPIO line \(line): \(operation) failed: \(errno) (errno \(errno.rawValue))"
        }
    }
}
