import ActuatorHAL

/// Where a requested GPIO line lives, however the board named it: its chip's character device and
/// its offset there. The crash guardian requests the line itself at this place once this process's
/// request is gone.
public struct GPIOLineLocation: Sendable, Hashable, CustomStringConvertible {
    /// The chip's device, e.g. `/dev/gpiochip0`.
    public var chipPath: String
    /// The line's offset on the chip.
    public var offset: UInt32

    /// Line `offset` of the chip whose device is `chipPath`.
    public init(chipPath: String, offset: UInt32) {
        self.chipPath = chipPath
        self.offset = offset
    }

    /// `/dev/gpiochip0:17`.
    public var description: String { "\(chipPath):\(offset)" }
}
