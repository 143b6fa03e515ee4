import ActuatorHAL

/// A GPIO line read through libgpiod with both-edge events, timestamped by the kernel on
/// CLOCK_MONOTONIC (the clock `SystemMonotonicClock` reads), held with the consumer name "hapticboard".
///
/// Not `Sendable`: libgpiod requests serve one thread at a time.
public final class LinuxGPIOInput: DigitalInput {
    private let request: GPIOLineRequest

    /// Requests `line` as an input with rising and falling edge events.
    /// - Throws: `GPIOError.lineNotFound` (no such chip, name or offset), `.lineBusy`, `.chipOpen`
    ///   (EACCES: add the user to the `gpio` group) or `.io`.
    public init(_ line: GPIOLineSpecifier) throws(GPIOError) {
        request = try GPIOLineRequest(line, outputStartingAt: nil)
    }

    /// The line as the board named it (`GPIO27`, `gpiochip0:27`).
    public var name: String { request.line.description }

    /// The line's current level.
    public func read() throws(GPIOError) -> LineLevel {
        try request.read()
    }

    /// Waits up to `timeout` (negative counts as zero) for the next edge; events queue in the kernel,
    /// so edges that happened between calls are returned in order.
    public func waitForEdge(timeout: Duration) throws(GPIOError) -> EdgeEvent? {
        try request.waitForEdge(timeout: timeout)
    }
}
