/// Where a DRV2605-class chip of a board sits — its bus, the multiplexer channel in front of it,
/// its address and EN line — and which part the board says it is. A `BoardHardware` opens a
/// driver for it.
public struct ChipPlacement: Sendable, Hashable {
    /// An I2C bus of the board.
    public struct Bus: Sendable, Hashable {
        /// Its name in the board file (several chips and switches share a bus by name).
        public var name: String
        /// Its device: `/dev/i2c-1`, or `sim` for a simulated one.
        public var device: String
        /// SCL frequency in hertz.
        public var speedHz: Int

        public init(name: String, device: String, speedHz: Int) {
            self.name = name
            self.device = device
            self.speedHz = speedHz
        }
    }

    /// A TCA9548A in front of the chip.
    public struct Mux: Sendable, Hashable {
        /// Its name in the board file.
        public var name: String
        public var address: I2CAddress
        /// The chip's channel (0–7).
        public var channel: Int

        public init(name: String, address: I2CAddress, channel: Int) {
            self.name = name
            self.address = address
            self.channel = channel
        }
    }

    /// The actuator's name on the board.
    public var actuator: String
    public var bus: Bus
    public var mux: Mux?
    public var address: I2CAddress
    /// The EN line: a line name (`GPIO17`) or chip and offset (`gpiochip0:17`); nil when EN is
    /// tied high.
    public var enableLine: String?
    /// The part the board names (`compatible`).
    public var variant: DRV2605Variant

    public init(actuator: String, bus: Bus, mux: Mux?, address: I2CAddress, enableLine: String?, variant: DRV2605Variant) {
        self.actuator = actuator
        self.bus = bus
        self.mux = mux
        self.address = address
        self.enableLine = enableLine
        self.variant = variant
    }
}
