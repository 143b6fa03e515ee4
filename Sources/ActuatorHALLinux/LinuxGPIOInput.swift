import ActuatorHAL

/// A GPIO line read through libgpiod with both-edge events, timestamped by the kernel on
/// CLOCK_MONOTONIC (the clock `SystemMonotonicClock` reads), held with the consumer name "hapticboard".
///
/// Bias and active level are applied by the kernel on both libgpiod builds; debounce only with
/// libgpiod 2 (uAPI v2 `debounce_period_us`, in hardware where the line can and in the kernel's
/// edge interrupt otherwise). With libgpiod 1.6 `kernelDebounce` is zero and the reader debounces.
///
/// Not `Sendable`: libgpiod requests serve one thread at a time.
public final class LinuxGPIOInput: ConfiguredDigitalInput {
    private let request: GPIOLineRequest
    public let settings: InputLineSettings
    public let kernelDebounce: Duration

    /// Requests `line` as an input with rising and falling edge events and `settings`.
    /// - Throws: `GPIOError.lineNotFound` (no such chip, name or offset), `.lineBusy`, `.chipOpen`
    ///   (EACCES: add the user to the `gpio` group) or `.io`.
    public init(_ line: GPIOLineSpecifier, settings: InputLineSettings = InputLineSettings()) throws(GPIOError) {
        var applied: UInt32 = 0
        request = try GPIOLineRequest(line, input: settings, debounceApplied: &applied)
        self.settings = settings
        kernelDebounce = .microseconds(Int64(applied))
    }

    /// The line as the board named it (`GPIO27`, `gpiochip0:27`).
    public var name: String { request.line.description }

    /// The line's current level (in active terms when the line is active-low).
    public func read() throws(GPIOError) -> LineLevel {
        try request.read()
    }

    /// Waits up to `timeout` (negative counts as zero) for the next edge; events queue in the kernel,
    /// so edges that happened between calls are returned in order.
    public func waitForEdge(timeout: Duration) throws(GPIOError) -> EdgeEvent? {
        try request.waitForEdge(timeout: timeout)
    }
}
