import ActuatorHAL

/// Where a requested GPIO line lives, however the board named it: its chip's character device and
/// its offset there, and this process's request of it. The crash guardian keeps a copy of the
/// request and drives the line low through it the moment this process starts to die; without one
/// it requests the line itself at this place once this process's request is gone.
public struct GPIOLineLocation: Sendable, Hashable, CustomStringConvertible {
    /// An output line's request: its descriptor and the GPIO uAPI version it speaks (1: a line
    /// handle, as libgpiod 1.6 requests; 2: a line request, as libgpiod 2 does).
    public struct HeldRequest: Sendable, Hashable {
        /// The request's open descriptor in this process.
        public var descriptor: Int32
        /// 1 or 2.
        public var uapiVersion: Int32

        /// The request open on `descriptor`, speaking GPIO uAPI `uapiVersion`.
        public init(descriptor: Int32, uapiVersion: Int32) {
            self.descriptor = descriptor
            self.uapiVersion = uapiVersion
        }
    }

    /// The chip's device, e.g. `/dev/gpiochip0`.
    public var chipPath: String
    /// The line's offset on the chip.
    public var offset: UInt32
    /// This process's request of the line, where known.
    public var heldRequest: HeldRequest?

    /// Line `offset` of the chip whose device is `chipPath`, held by `heldRequest`.
    public init(chipPath: String, offset: UInt32, heldRequest: HeldRequest? = nil) {
        self.chipPath = chipPath
        self.offset = offset
        self.heldRequest = heldRequest
    }

    /// `/dev/gpiochip0:17`.
    public var description: String { "\(chipPath):\(offset)" }
}
