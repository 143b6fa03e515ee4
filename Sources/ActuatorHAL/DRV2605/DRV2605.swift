/// How often transient bus errors on idempotent register accesses are retried.
public struct DRV2605RetryPolicy: Sendable, Hashable {
    /// Retries after the first attempt.
    public var retries: Int
    /// Pause on the driver's clock before each retry, to let a glitch or arbitration pass.
    public var backoff: Duration

    /// Three retries 100 µs apart by default: enough to ride out a glitch, bounded so a dead bus fails fast.
    public init(retries: Int = 3, backoff: Duration = .microseconds(100)) {
        self.retries = retries
        self.backoff = backoff
    }
}

/// A DRV2604/DRV2604L/DRV2605/DRV2605L haptic driver over any `I2CBus`, with an optional EN line.
///
/// Register access goes through `readRegister`/`writeRegister`, which refuse while EN is held low
/// (without touching the bus) and retry transient bus errors. The datasheet procedures
/// (initialisation, calibration, diagnostics) are in the extensions, one readable function each.
public final class DRV2605 {
    /// The fixed 7-bit address of every DRV2605-family chip.
    public static let defaultAddress: I2CAddress = 0x5A
    /// The datasheet's wait after EN goes high before the chip accepts I2C traffic.
    public static let enableSettleTime = Duration.microseconds(250)

    /// The bus the chip is on (a multiplexer channel is a bus too).
    public let bus: any I2CBus
    /// The chip's address, 0x5A unless behind an address translator.
    public let address: I2CAddress
    /// The EN pin; `nil` when it is tied high on the board.
    public let enableLine: (any DigitalOutput)?
    /// The clock every wait (EN settle, polling, retry backoff) runs on.
    public let clock: any MonotonicClock
    /// How transient bus errors on idempotent accesses are retried.
    public var retryPolicy: DRV2605RetryPolicy {
        get { storedRetryPolicy }
        set { storedRetryPolicy = newValue }
    }
    /// The variant found by the last `identify()`.
    public var variant: DRV2605Variant? { storedVariant }
    /// STATUS as last read (by `identify()`, `readStatus()` or `checkFaults()`).
    public var lastStatus: DRV2605Status? { storedLastStatus }
    // Stored apart from the public accessors, which every transfer reads: a public stored property
    // keeps a run-time exclusivity check on every access, as no optimiser can see another
    // module's; these private ones the optimiser checks once, at compile time.
    private var storedRetryPolicy: DRV2605RetryPolicy
    private var storedVariant: DRV2605Variant?
    private var storedLastStatus: DRV2605Status?
    /// The clear-on-read STATUS flags (DIAG_RESULT, OVER_TEMP) and OC_DETECT seen by any read since
    /// `takeUnreportedFaults()` last took them: reading STATUS clears OVER_TEMP, so a read made for
    /// another purpose (identifying the chip at wake) must not lose it.
    private var unreportedStatusFlags: UInt8 = 0

    /// A driver for the chip at `address` on `bus`; no I/O happens until a method is called.
    public init(
        bus: any I2CBus,
        address: I2CAddress = DRV2605.defaultAddress,
        enableLine: (any DigitalOutput)? = nil,
        clock: any MonotonicClock,
        retryPolicy: DRV2605RetryPolicy = DRV2605RetryPolicy()
    ) {
        self.bus = bus
        self.address = address
        self.enableLine = enableLine
        self.clock = clock
        storedRetryPolicy = retryPolicy
    }

    // MARK: EN

    /// Whether registers are accessible: EN is high, or there is no EN line.
    public var isEnabled: Bool { enableLine?.level != .low }

    /// Drives EN high and waits the datasheet's 250 µs; nothing to do if already high.
    public func enable() throws(DRV2605Error) {
        guard let enableLine, enableLine.level == .low else { return }
        do { try enableLine.set(.high) } catch { throw .enableLine(error) }
        try pause(Self.enableSettleTime)
    }

    /// Drives EN low: the chip stops driving and (it must be assumed) loses its registers.
    public func disable() throws(DRV2605Error) {
        guard let enableLine else { return }
        do { try enableLine.set(.low) } catch { throw .enableLine(error) }
    }

    // MARK: Register access

    /// The bus transaction that reads one register (register pointer write, repeated START, read).
    public static func readOperations(_ register: DRV2605Register) -> [I2COperation] {
        [.write([register.rawValue]), .read(count: 1)]
    }

    /// The bus transaction that writes one register.
    public static func writeOperations(_ register: DRV2605Register, _ value: UInt8) -> [I2COperation] {
        [.write([register.rawValue, value])]
    }

    /// Wire time of `reads` register reads and `writes` register writes at this bus's speed.
    public func wireTime(reads: Int = 0, writes: Int = 0) -> Duration {
        .nanoseconds(accessNanoseconds.read * Int64(reads) + accessNanoseconds.write * Int64(writes))
    }

    /// Wire time of loading `slots` consecutive sequencer slots in one write (`load(_:)`).
    public func wireTime(loadingSlots slots: Int) -> Duration {
        .nanoseconds(accessNanoseconds.write + accessNanoseconds.eachFurtherByte * Int64(slots - 1))
    }

    /// The bus's wire time of one register read and one register write, asked once: budgets and
    /// leads need them on every player start, and asking builds a transaction's arrays.
    private lazy var accessNanoseconds = (
        read: bus.wireTime(of: Self.readOperations(.status)).nanoseconds,
        write: bus.wireTime(of: Self.writeOperations(.status, 0)).nanoseconds,
        eachFurtherByte: bus.wireTime(of: [.write([0, 0, 0])]).nanoseconds - bus.wireTime(of: Self.writeOperations(.status, 0)).nanoseconds
    )

    /// Reads one register; transient bus errors are retried (a read has no side effects).
    public func readRegister(_ register: DRV2605Register) throws(DRV2605Error) -> UInt8 {
        let data = try access(register, retryingTransientErrors: true) { () throws(I2CError) in
            try self.bus.transaction(address: self.address, Self.readOperations(register))
        }
        guard let value = data.first?.first else {
            throw .bus(register: register, .unsupportedTransaction(bus: bus.name, reason: "a one-byte read returned no data"), attempts: 1)
        }
        return value
    }

    /// Writes one configuration register; writing the same value twice is harmless, so transient
    /// bus errors are retried. GO is written with `go()` instead.
    public func writeRegister(_ register: DRV2605Register, _ value: UInt8) throws(DRV2605Error) {
        try writeRegister(register, value, retryingTransientErrors: true)
    }

    /// Writes each of `writes` in order.
    public func write(_ writes: [DRV2605RegisterWrite]) throws(DRV2605Error) {
        for write in writes { try writeRegister(write.register, write.value) }
    }

    /// Writes `values` to `register` and the registers after it in one transaction: the chip's
    /// register pointer advances after each byte (datasheet, "multiple-byte write operations").
    /// Retried on transient errors, as a configuration write: the same values twice are harmless.
    public func writeConsecutive(from register: DRV2605Register, _ values: [UInt8]) throws(DRV2605Error) {
        try access(register, retryingTransientErrors: true) { () throws(I2CError) in
            try self.bus.write(address: self.address, [register.rawValue] + values)
        }
    }

    private func writeRegister(_ register: DRV2605Register, _ value: UInt8, retryingTransientErrors: Bool) throws(DRV2605Error) {
        try access(register, retryingTransientErrors: retryingTransientErrors) { () throws(I2CError) in
            // The bus's own register write: on i2c-dev it allocates nothing, once per RTP sample.
            try self.bus.writeRegister(address: self.address, register: register.rawValue, value: value)
        }
    }

    /// Sets GO, starting the sequence, calibration or diagnostics the MODE register selects.
    ///
    /// Not retried blindly: a transfer can fail after the chip latched the byte (the error comes
    /// from the STOP or a late NACK), and a second GO would start the waveform again — a double
    /// click, or a restarted calibration. After a transient error GO is read back instead: if it is
    /// set, the first write landed; otherwise the error is thrown.
    public func go() throws(DRV2605Error) {
        do {
            try writeRegister(.go, DRV2605Field.goBit.encode(1), retryingTransientErrors: false)
        } catch {
            guard case .bus(_, let busError, _) = error, busError.isTransient,
                  let readBack = try? readRegister(.go), DRV2605Field.goBit.isSet(in: readBack) else { throw error }
        }
    }

    /// Clears GO: stops a sequence, calibration or diagnostics at once. Idempotent, so retried.
    public func stop() throws(DRV2605Error) {
        try writeRegister(.go, 0)
    }

    /// Whether GO is still set (a sequence, calibration or diagnostics is running).
    public func isRunning() throws(DRV2605Error) -> Bool {
        DRV2605Field.goBit.isSet(in: try readRegister(.go))
    }

    private func access<Result>(
        _ register: DRV2605Register,
        retryingTransientErrors: Bool,
        _ body: () throws(I2CError) -> Result
    ) throws(DRV2605Error) -> Result {
        guard isEnabled else { throw .disabled(address: address, bus: bus.name) }
        var attempts = 0
        while true {
            attempts += 1
            do {
                return try body()
            } catch {
                guard retryingTransientErrors, error.isTransient, attempts <= retryPolicy.retries else {
                    throw .bus(register: register, error, attempts: attempts)
                }
                try pause(retryPolicy.backoff)
            }
        }
    }

    /// Sleeps on the driver's clock.
    func pause(_ duration: Duration) throws(DRV2605Error) {
        do { try clock.sleep(for: duration) } catch { throw .clock("\(error)") }
    }

    // MARK: Identity and reset

    /// Reads STATUS once and remembers the variant its DEVICE_ID names (any other id is refused)
    /// and the status (`lastStatus`; its fault flags stay unreported until taken).
    @discardableResult
    public func identify() throws(DRV2605Error) -> DRV2605Variant {
        let deviceID = try readStatus().deviceID
        guard let variant = DRV2605Variant(deviceID: deviceID) else {
            throw .unknownDevice(deviceID: deviceID, address: address, bus: bus.name)
        }
        storedVariant = variant
        return variant
    }

    /// The variant already identified, or identifies it now.
    public func identifiedVariant() throws(DRV2605Error) -> DRV2605Variant {
        if let variant { return variant }
        return try identify()
    }

    /// Sets DEV_RESET and polls until the chip clears it (every register back to its reset value).
    public func reset(timeout: Duration = .milliseconds(100), pollInterval: Duration = .milliseconds(1)) throws(DRV2605Error) {
        try writeRegister(.mode, DRV2605Field.deviceReset.encode(1))
        let deadline = clock.now + timeout
        while DRV2605Field.deviceReset.isSet(in: try readRegister(.mode)) {
            guard clock.now < deadline else { throw .resetTimeout(timeout) }
            try pause(pollInterval)
        }
    }

    // MARK: Status

    /// Reads STATUS, keeping its fault flags until `takeUnreportedFaults()` (the chip clears
    /// DIAG_RESULT and OVER_TEMP on every read).
    public func readStatus() throws(DRV2605Error) -> DRV2605Status {
        noting(DRV2605Status(rawValue: try readRegister(.status)))
    }

    /// Reads STATUS and MODE in one transaction, as `readStatus()` and `readRegister(.mode)`
    /// would: the chip answers a read of several bytes from consecutive registers (TI DRV2605L
    /// datasheet, "multiple-byte read operations"), and STATUS (0x00) and MODE (0x01) are
    /// neighbours. One transaction instead of two: at 100 kHz, a Raspberry Pi's default, a read
    /// holds the bus for about 390 µs, and every status look made two of them.
    public func readStatusAndMode() throws(DRV2605Error) -> (status: DRV2605Status, mode: UInt8) {
        let data = try access(.status, retryingTransientErrors: true) { () throws(I2CError) in
            try self.bus.transaction(address: self.address, [.write([DRV2605Register.status.rawValue]), .read(count: 2)])
        }
        guard let bytes = data.first, bytes.count == 2 else {
            throw .bus(register: .status, .unsupportedTransaction(bus: bus.name, reason: "a two-byte read returned \(data.first?.count ?? 0) bytes"), attempts: 1)
        }
        return (noting(DRV2605Status(rawValue: bytes[0])), bytes[1])
    }

    /// Keeps `status` as the last one read and its fault flags until `takeUnreportedFaults()`.
    private func noting(_ status: DRV2605Status) -> DRV2605Status {
        storedLastStatus = status
        unreportedStatusFlags |= status.rawValue & Self.faultFlags
        return status
    }

    /// STATUS flags that report an event: DIAG_RESULT, OVER_TEMP, OC_DETECT.
    private static let faultFlags = DRV2605Field.diagnosticResult.mask | DRV2605Field.overTemperature.mask | DRV2605Field.overCurrent.mask

    /// The fault flags every STATUS read since the last call saw (as a status with only those
    /// bits), and forgets them: for whoever reports faults (`DRV2605Actuator.status()`).
    public func takeUnreportedFaults() -> DRV2605Status {
        defer { unreportedStatusFlags = 0 }
        return DRV2605Status(rawValue: unreportedStatusFlags)
    }

    /// Reads STATUS and throws `.faults` when OVER_TEMP or OC_DETECT is set.
    @discardableResult
    public func checkFaults() throws(DRV2605Error) -> DRV2605Status {
        let status = try readStatus()
        guard status.faults.isEmpty else { throw .faults(status.faults, status: status.rawValue) }
        return status
    }

    /// Writes MODE: `mode`, in or out of standby.
    public func setMode(_ mode: DRV2605Mode, standby: Bool) throws(DRV2605Error) {
        try writeRegister(.mode, mode.registerValue(standby: standby))
    }
}
