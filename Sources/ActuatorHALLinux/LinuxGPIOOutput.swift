import ActuatorHAL

/// A GPIO line driven through libgpiod (e.g. a DRV2605's EN pin), held for this object's lifetime
/// with the consumer name "hapticboard".
///
/// Not `Sendable`: libgpiod requests serve one thread at a time.
public final class LinuxGPIOOutput: DigitalOutput {
    private let request: GPIOLineRequest
    /// The level last driven (the initial level until the first `set`).
    public private(set) var level: LineLevel

    /// Requests `line` as an output driven to `initialLevel` from the moment it is granted.
    /// - Throws: `GPIOError.lineNotFound` (no such chip, name or offset), `.lineBusy`, `.chipOpen`
    ///   (EACCES: add the user to the `gpio` group) or `.io`.
    public init(_ line: GPIOLineSpecifier, initialLevel: LineLevel) throws(GPIOError) {
        request = try GPIOLineRequest(line, outputStartingAt: initialLevel)
        level = initialLevel
    }

    /// The line as the board named it (`GPIO17`, `gpiochip0:17`).
    public var name: String { request.line.description }

    /// The chip device and offset of the line held, for the crash guardian.
    /// - Throws: `GPIOError.io` when the location does not fit a path buffer.
    public func location() throws(GPIOError) -> GPIOLineLocation {
        try request.location()
    }

    /// Drives the line to `level`.
    public func set(_ level: LineLevel) throws(GPIOError) {
        try request.set(level)
        self.level = level
    }
}
