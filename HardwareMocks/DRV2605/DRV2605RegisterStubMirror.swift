import ActuatorHAL

/// Gives a plain register file on a real bus — Linux's i2c-stub, which only stores bytes — the
/// behaviour of a DRV2605, by running a `DRV2605Model` beside it.
///
/// Each `poll` reads the register file, feeds every register the host changed since the last poll
/// into the model as an I2C write (GO last, so a sequence or calibration starts with everything
/// written before it in place), and writes back every register whose value the model then holds
/// differently: GO clears when the sequence ends, DEV_RESET clears, calibration leaves its results,
/// read-only registers keep the chip's values. The chip logic is the model's; this type only
/// carries writes across.
///
/// Polling cannot see the order of writes made between two polls, nor a register written and
/// restored in between, so it fits hosts that, like the DRV2605 driver, wait for the chip (GO,
/// DEV_RESET) instead of racing it. Reading STATUS through the stub does not clear its
/// clear-on-read flags: the stub answers reads without the model.
///
/// MODE and GO, the registers a host waits on, are written back last: a host that sees DEV_RESET
/// clear finds every other register already at its reset value, instead of writing its
/// configuration while the rest of the reset is still being written over it.
public final class DRV2605RegisterStubMirror {
    /// What one poll observed or did.
    public enum Event: Sendable, Hashable, CustomStringConvertible {
        /// The host wrote `value` to `register` since the last poll.
        case hostWrote(register: UInt8, value: UInt8)
        /// The model holds `value` in `register`, written back to the register file.
        case chipSet(register: UInt8, value: UInt8)
        /// EN changed level.
        case enable(LineLevel)

        public var description: String {
            switch self {
            case .hostWrote(let register, let value): return "host wrote \(Self.hex(register)) = \(Self.hex(value))"
            case .chipSet(let register, let value): return "chip set \(Self.hex(register)) = \(Self.hex(value))"
            case .enable(let level): return "EN \(level)"
            }
        }

        private static func hex(_ byte: UInt8) -> String {
            let digits = String(byte, radix: 16)
            return "0x" + (digits.count < 2 ? "0" + digits : digits)
        }
    }

    /// The chip whose behaviour is mirrored.
    public let model: DRV2605Model
    private let bus: any I2CBus
    private let address: I2CAddress
    private let clock: VirtualClock
    private let enableLine: SimulatedOutputLine
    /// The register file as last read or written; nil until `start` or after a bus error.
    private var image: [UInt8]?

    /// A `variant` chip mirrored into the register file at `address` on `bus`; `clock` is the
    /// model's time, which the caller keeps up with the wall clock. EN starts at `enable`.
    public init(bus: any I2CBus, address: I2CAddress, variant: DRV2605Model.Variant, clock: VirtualClock, enable: LineLevel) {
        self.bus = bus
        self.address = address
        self.clock = clock
        enableLine = SimulatedOutputLine(name: "EN", initial: enable, clock: clock)
        model = DRV2605Model(variant: variant, clock: clock, enableLine: enableLine)
    }

    /// Writes the model's whole register file (reset values with DEVICE_ID) over the register
    /// file, which starts all zero. Also what a poll does first after a bus error, as a chip that
    /// comes back on the bus has been through power-on reset.
    public func start() throws(I2CError) {
        image = nil
        for register in DRV2605Model.registerAddresses {
            try bus.write(address: address, [register, model.register(register)])
        }
        image = DRV2605Model.registerAddresses.map { model.register($0) }
    }

    /// One round: EN to `enable`, the host's writes into the model, the model's changes back out.
    /// `enable` is read after the register file, as the order below needs.
    /// - Throws: the bus's error (the next poll starts over with `start()`), or `enable`'s.
    @discardableResult
    public func poll(enable readEnable: @autoclosure () throws -> LineLevel) throws -> [Event] {
        guard let previous = image else {
            try start()
            return []
        }
        image = nil
        let first = DRV2605Model.registerAddresses.lowerBound
        // The register file is read before EN: a host raises EN before it writes, so writes seen
        // here were made with EN high whenever EN reads high afterwards. (EN read first, low, then
        // a host's wake-up and initialisation landing before the file was read, made the model
        // reset and write its reset values over that initialisation: the lane saw it.)
        let current = try bus.writeRead(address: address, [first], readCount: DRV2605Model.registerAddresses.count)
        let enable: LineLevel
        do {
            enable = try readEnable()
        } catch {
            // Not the bus: the next poll goes on from the same image.
            image = previous
            throw error
        }
        var events: [Event] = []
        if enable != enableLine.level {
            try? enableLine.set(enable)
            events.append(.enable(enable))
            // The host waited the datasheet's start-up time after EN rose before writing.
            if enable == .high { clock.advance(by: DRV2605Model.startupTime) }
        }
        let go = DRV2605Model.Register.go.rawValue
        let written = zip(DRV2605Model.registerAddresses, zip(previous, current))
            .filter { $0.1.0 != $0.1.1 }
            .map { (register: $0.0, value: $0.1.1) }
            .sorted { ($0.register == go ? 1 : 0, $0.register) < ($1.register == go ? 1 : 0, $1.register) }
        for write in written {
            events.append(.hostWrote(register: write.register, value: write.value))
            try model.receive([write.register, write.value])
        }
        var next = current
        for (index, register) in Self.writeBackOrder {
            let value = model.register(register)
            guard value != current[index] else { continue }
            try bus.write(address: address, [register, value])
            next[index] = value
            events.append(.chipSet(register: register, value: value))
        }
        image = next
        return events
    }

    /// Every register with its index in the file, MODE and GO last: a host waiting for DEV_RESET
    /// or GO to clear starts writing when it sees them, so everything else is in place before.
    private static let writeBackOrder: [(index: Int, register: UInt8)] = {
        let handshakes = [DRV2605Model.Register.mode.rawValue, DRV2605Model.Register.go.rawValue]
        let first = DRV2605Model.registerAddresses.lowerBound
        let order = DRV2605Model.registerAddresses.filter { !handshakes.contains($0) } + handshakes
        return order.map { (index: Int($0 - first), register: $0) }
    }()
}
