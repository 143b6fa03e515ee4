/// A DRV2605-class chip and its actuator as the runtime drives them: power states, budgets,
/// ROM effects and real-time amplitude.
///
/// Power states: off = EN low; standby = EN high, configured, MODE.STANDBY = 1; ready = STANDBY = 0
/// with MODE set for the `DriveMode` (internal trigger for ROM sequences, RTP for amplitude).
/// Without an EN line the chip is always powered: `sleep()` stops at standby.
public final class DRV2605Actuator: Actuator {
    /// Time allowed for the chip to leave standby. The datasheet gives no figure (unverified);
    /// Linux and Zephyr drive straight after the MODE write, so this is an allowance in the budget,
    /// not a wait.
    public static let standbyExitAllowance = Duration.microseconds(500)

    /// The actuator's name on its board (`main`, `left`).
    public let name: String
    /// The chip driver underneath, for calibration, dumps and diagnostics.
    public let driver: DRV2605
    /// What is written to the chip at every wake.
    public let configuration: DRV2605Configuration
    /// The calibration restored after every power-up; set by `calibrate()` or `apply(_:)`.
    public var calibration: DRV2605CalibrationResult? { storedCalibration }
    /// The state the last transition left the chip in; off until the first `wake()`.
    public var powerState: PowerState { storedPowerState }
    /// The mode the chip is prepared for while ready.
    public var preparedMode: DriveMode? { storedPreparedMode }
    // Stored privately behind the public getters, as `DRV2605`'s state is, for the same reason: the
    // engine reads them several times per command (the calibration on every real-time sample).
    private var storedCalibration: DRV2605CalibrationResult?
    private var storedPowerState: PowerState = .off
    private var storedPreparedMode: DriveMode?
    /// The last transition's report.
    public private(set) var lastTransition: PowerTransitionReport?
    /// How many transitions took longer than their budget.
    public private(set) var overrunCount = 0
    /// Whether the last `wake()` found the register file changed and wrote the configuration again.
    public private(set) var lastWakeReapplied = false
    private let maximumContinuousDrive: Duration?
    /// The variant the board names, assumed until the chip identifies itself at its first wake.
    public let expectedVariant: DRV2605Variant

    /// An actuator on `driver`, configured with `configuration` at wake; no I/O happens here.
    /// `expectedVariant` (the board's `compatible`) decides the capabilities until the first wake
    /// reads DEVICE_ID; from then on the chip that answered does.
    public init(
        name: String,
        driver: DRV2605,
        configuration: DRV2605Configuration,
        calibration: DRV2605CalibrationResult? = nil,
        maximumContinuousDrive: Duration? = nil,
        expectedVariant: DRV2605Variant = .drv2605L
    ) {
        self.name = name
        self.driver = driver
        self.configuration = configuration
        storedCalibration = calibration
        self.maximumContinuousDrive = maximumContinuousDrive
        self.expectedVariant = expectedVariant
    }

    /// The chip's variant: the one that answered once identified, else the one the board names.
    public var variant: DRV2605Variant { driver.variant ?? expectedVariant }

    /// The registers this actuator's configuration gives the chip; `nil` when the configuration
    /// cannot be turned into registers for the variant (waking then throws why).
    private var registerValues: DRV2605RegisterValues? {
        try? DRV2605RegisterValues(configuration: configuration, variant: variant, calibration: calibration)
    }

    /// How RTP_INPUT is read with this configuration (amplitude 1 at the rated voltage), for the
    /// variant and calibration it was worked out for: working it out builds the whole register
    /// file, too much (and too many allocations) for every real-time sample.
    private var realtimeInput: DRV2605RealtimeInput {
        if let cached = realtimeInputCache, cached.variant == variant, cached.calibration == calibration { return cached.input }
        let input = registerValues?.realtimeInput ?? configuration.realtimeInputReading
        realtimeInputCache = (variant, calibration, input)
        return input
    }
    private var realtimeInputCache: (variant: DRV2605Variant, calibration: DRV2605CalibrationResult?, input: DRV2605RealtimeInput)?

    /// ROM effects (when the chip has a library) and the share of their full scale that is rated,
    /// real-time amplitude (signed in open loop) in the RTP format's steps up to the rated voltage,
    /// resonant frequency, and the bus cost of one RTP update.
    public var capabilities: ActuatorCapabilities {
        let ratings = configuration.ratings
        let input = realtimeInput
        return ActuatorCapabilities(
            kind: ratings.kind,
            romLibrary: configuration.effectiveLibrary(on: variant),
            supportsRealtimeAmplitude: true,
            supportsSignedAmplitude: input.allowsNegative,
            supportsPCM: false,
            resonantFrequency: ratings.kind == .lra ? ratings.resonantFrequency : nil,
            frequencyAdjustable: ratings.kind == .lra && ratings.loop == .open,
            amplitudeUpdateCost: driver.wireTime(writes: 1),
            maximumContinuousDrive: maximumContinuousDrive,
            amplitudeSteps: input.ratedSteps,
            // The rated share of full scale RTP uses holds for the ROM effects too: in open loop
            // both are scaled to the overdrive clamp.
            romLevelLimit: Double(input.ratedSteps) / Double(input.fullScaleSteps),
            // The slots in one write (`DRV2605.load`), then GO.
            romTriggerCost: ROMTriggerCost(fixed: driver.wireTime(loadingSlots: 0) + driver.wireTime(writes: 1),
                                           perSlot: driver.wireTime(loadingSlots: 1) - driver.wireTime(loadingSlots: 0))
        )
    }

    // MARK: Budgets

    /// Configuration writes for this chip (stored calibration included).
    private var configurationWriteCount: Int { registerValues?.writes.count ?? 0 }

    /// The writes that stop output: GO ← 0 and RTP_INPUT ← 0.
    private static let stopWriteCount = 2

    /// Datasheet delays (250 µs after EN; the standby-exit allowance) plus the wire time of the
    /// transition's register accesses at the bus speed, in the worst case (wake re-applying everything).
    public func budget(for transition: PowerTransition) -> Duration {
        switch transition {
        case .wake:
            // EN settle, STATUS read, read-back of every configuration register, and in the worst
            // case MODE ← 0x00, the configuration, MODE ← 0x40.
            let count = configurationWriteCount
            return DRV2605.enableSettleTime + driver.wireTime(reads: 1 + count, writes: count + 2)
        case .prepare:
            return Self.standbyExitAllowance + driver.wireTime(writes: Self.stopWriteCount + 1)
        case .standby, .sleep:
            return driver.wireTime(writes: Self.stopWriteCount + 1)
        }
    }

    // MARK: Power transitions

    @discardableResult
    public func wake() throws -> PowerTransitionReport {
        guard powerState == .off else { return unchanged(.wake) }
        return try measure(.wake, to: .standby, budget: budget(for: .wake)) { () throws(DRV2605Error) in
            do throws(DRV2605Error) {
                lastWakeReapplied = try driver.initialize(configuration, calibration: calibration)
            } catch {
                // A chip that cannot be configured must not stay powered half-set-up.
                try? driver.disable()
                throw error
            }
            storedPreparedMode = nil
        }
    }

    public func isPrepared(for mode: DriveMode) -> Bool { powerState == .ready && preparedMode == mode }

    @discardableResult
    public func prepare(for mode: DriveMode) throws -> PowerTransitionReport {
        if isPrepared(for: mode) { return unchanged(.prepare) }
        guard mode != .pcm else { throw DRV2605Error.unsupported(variant: variant, "drive an actuator as PCM audio") }
        let start = driver.clock.now
        let from = powerState
        var budget = self.budget(for: .prepare)
        if powerState == .off {
            budget += self.budget(for: .wake)
            try wake()
        }
        if mode == .romSequence, configuration.effectiveLibrary(on: variant) == nil {
            throw DRV2605Error.unsupported(variant: variant, "play ROM effects (it has RAM, not a ROM library)")
        }
        return try measure(.prepare, from: from, start: start, to: .ready, budget: budget) { () throws(DRV2605Error) in
            switch mode {
            case .romSequence:
                try driver.stop()
                try driver.setMode(.internalTrigger, standby: false)
            case .realtimeAmplitude:
                try driver.writeRegister(.realtimeInput, realtimeInput.silence)
                try driver.setMode(.realtimePlayback, standby: false)
            case .pcm:
                break
            }
            storedPreparedMode = mode
        }
    }

    @discardableResult
    public func standby() throws -> PowerTransitionReport {
        guard powerState == .ready else { return unchanged(.standby) }
        return try measure(.standby, to: .standby, budget: budget(for: .standby)) { () throws(DRV2605Error) in
            try stopOutput()
            try driver.setMode(.internalTrigger, standby: true)
            storedPreparedMode = nil
        }
    }

    @discardableResult
    public func sleep() throws -> PowerTransitionReport {
        guard powerState != .off else { return unchanged(.sleep) }
        let target: PowerState = driver.enableLine == nil ? .standby : .off
        return try measure(.sleep, to: target, budget: budget(for: .sleep)) { () throws(DRV2605Error) in
            // EN goes low even when the bus fails: that alone stops the output.
            var busError: DRV2605Error?
            do throws(DRV2605Error) {
                try stopOutput()
                try driver.setMode(.internalTrigger, standby: true)
            } catch {
                busError = error
            }
            try driver.disable()
            storedPreparedMode = nil
            if let busError { throw busError }
        }
    }

    // MARK: Output

    /// Validates `effects` (before any bus traffic), prepares for ROM playback if needed, loads the
    /// sequencer and sets GO. On any failure the output is stopped before the error is rethrown.
    public func play(effects: [SequencerStep]) throws {
        let sequence = try DRV2605Sequence.validated(effects)
        try stoppingOnFailure {
            try prepare(for: .romSequence)
            try driver.play(sequence)
        }
    }

    /// Writes RTP_INPUT, preparing for real-time playback if needed: `amplitude` of the rated
    /// voltage (`DRV2605RealtimeInput`). Negative values drive in antiphase in open loop and are
    /// clamped to 0 in closed loop. On failure the output is stopped first.
    public func setAmplitude(_ amplitude: Double) throws {
        let value = try realtimeInput.register(amplitude: amplitude)
        try stoppingOnFailure {
            try prepare(for: .realtimeAmplitude)
            try driver.writeRegister(.realtimeInput, value)
        }
    }

    /// Prepares for ROM playback and loads `sequence` without setting GO: a broadcast GO then
    /// starts several chips at once (`DRV2605Broadcast`).
    func load(_ sequence: DRV2605Sequence) throws {
        try prepare(for: .romSequence)
        try driver.load(sequence)
    }

    /// Prepares for real-time playback and returns the RTP_INPUT byte for `amplitude`, for a
    /// broadcast write of it (`DRV2605Broadcast`).
    func preparedRealtimeByte(for amplitude: Double) throws -> UInt8 {
        let value = try realtimeInput.register(amplitude: amplitude)
        try prepare(for: .realtimeAmplitude)
        return value
    }

    /// Open-loop LRA on a chip with OL_LRA_PERIOD (DRV2605L, DRV2604L): writes the period for
    /// `hertz`. Closed loop follows resonance and older chips have no such register: those throw
    /// `ActuatorError.unsupported`.
    public func setDriveFrequency(_ hertz: Double) throws {
        guard capabilities.frequencyAdjustable, variant.hasOpenLoopPeriodRegister else {
            throw ActuatorError.unsupported(actuator: name, operation: "setting the drive frequency (\(hertz) Hz)")
        }
        let period = try DRV2605OpenLoopPeriod.register(frequency: hertz)
        try stoppingOnFailure {
            try driver.writeRegister(.openLoopLRAPeriod, period)
        }
    }

    /// The bus time of the two stop writes.
    public var stopLead: Duration { driver.wireTime(writes: Self.stopWriteCount) }

    /// GO ← 0 and RTP_INPUT ← 0, keeping the power state and mode.
    public func stop() throws {
        guard powerState != .off else { return }
        try stopOutput()
    }

    /// EN low, nothing on the bus: the output stops at once and the chip is off (the next wake
    /// writes its configuration again). Nil without an EN line, when already off, or when the
    /// line cannot be driven.
    public func powerOffWithoutTheBus() -> PowerTransitionReport? {
        guard driver.enableLine != nil, powerState != .off else { return nil }
        let (from, start) = (powerState, driver.clock.now)
        guard (try? driver.disable()) != nil else { return nil }
        storedPowerState = .off
        storedPreparedMode = nil
        let report = PowerTransitionReport(transition: .sleep, from: from, to: .off, elapsed: driver.clock.now - start, budget: budget(for: .sleep))
        lastTransition = report
        return report
    }

    /// STATUS and GO; off reports without bus traffic. OVER_TEMP, OC_DETECT and DIAG_RESULT become
    /// faults — also those an earlier read saw (identifying the chip at wake, a diagnostic), since
    /// the chip clears OVER_TEMP and DIAG_RESULT on every read: each is reported once.
    ///
    /// MODE (read with STATUS, in one transaction) and, in standby, a configuration register are
    /// read too: a chip reset behind the driver's back (a supply dip, ESD) keeps EN high and
    /// acknowledges as before, but its registers are back at their reset values and it sits in
    /// standby ignoring RTP writes. That is `.registersReset`, and the actuator then counts as
    /// off, so the next `wake()` writes the configuration again.
    public func status() throws -> ActuatorStatus {
        guard powerState != .off else { return ActuatorStatus(powerState: .off, isPlaying: false, faults: []) }
        let mode = try driver.readStatusAndMode().mode
        let flags = driver.takeUnreportedFaults()
        var faults = flags.faults
        if flags.diagnosticFailed { faults.insert(.diagnosticFailed) }
        let isPlaying = try driver.isRunning()
        if try lostItsRegisters(modeReading: mode) {
            faults.insert(.registersReset)
            storedPowerState = .off
            storedPreparedMode = nil
            return ActuatorStatus(powerState: .off, isPlaying: false, faults: faults)
        }
        return ActuatorStatus(powerState: powerState, isPlaying: isPlaying, faults: faults)
    }

    /// Whether the chip no longer holds what was written to it: MODE (`modeReading`) is not the
    /// mode it was prepared for, or, where that mode is MODE's reset value (standby, internal
    /// trigger), the configuration's witness register (`resetWitness`) reads its reset value.
    /// Out of standby MODE alone tells: a reset puts it back to standby, and only this driver
    /// writes it, so the witness read would cost bus time and say nothing more.
    private func lostItsRegisters(modeReading: UInt8) throws(DRV2605Error) -> Bool {
        let resetMode = DRV2605Mode.internalTrigger.registerValue(standby: true)
        let expectedMode: UInt8 = switch preparedMode {
        case .romSequence where powerState == .ready: DRV2605Mode.internalTrigger.registerValue(standby: false)
        case .realtimeAmplitude where powerState == .ready: DRV2605Mode.realtimePlayback.registerValue(standby: false)
        default: resetMode
        }
        if modeReading != expectedMode { return true }
        guard expectedMode == resetMode, let witness = resetWitness else { return false }
        return try driver.readRegister(witness.register) == witness.resetValue
    }

    /// A configured register whose value differs from its reset value (RATED_VOLTAGE, else
    /// OD_CLAMP), so reading the reset value there means the chip was reset; nil when the
    /// configuration happens to equal both reset values (then only MODE tells).
    private var resetWitness: (register: DRV2605Register, resetValue: UInt8)? {
        guard let writes = registerValues?.writes else { return nil }
        let features = variant.features
        for (register, resetValue) in [(DRV2605Register.ratedVoltage, features.resetRatedVoltage), (.overdriveClamp, features.resetOverdriveClamp)] {
            if let written = writes.last(where: { $0.register == register }), written.value != resetValue { return (register, resetValue) }
        }
        return nil
    }

    // MARK: Calibration and diagnostics

    /// Runs auto-calibration (waking the chip if needed), keeps the result for later wakes and
    /// returns it for storage. Leaves the chip in standby.
    @discardableResult
    public func calibrate() throws -> DRV2605CalibrationResult {
        try wake()
        let result = try inStandbyAfterwards { () throws(DRV2605Error) in try driver.calibrate(configuration) }
        storedCalibration = result
        return result
    }

    /// Restores a stored calibration: written now if the chip is powered, and after every wake.
    public func apply(_ calibration: DRV2605CalibrationResult) throws {
        storedCalibration = calibration
        guard powerState != .off else { return }
        try driver.apply(calibration)
    }

    /// Runs the chip's actuator diagnostics (waking it if needed); throws `.diagnosticsFailed`.
    public func runDiagnostics() throws {
        try wake()
        _ = try inStandbyAfterwards { () throws(DRV2605Error) in try driver.runDiagnostics() }
    }

    // MARK: Internals

    private func stopOutput() throws(DRV2605Error) {
        try driver.stop()
        try driver.writeRegister(.realtimeInput, realtimeInput.silence)
    }

    /// Runs `body`; on any error stops the output (`stopAfterFailure`) before rethrowing.
    private func stoppingOnFailure(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch {
            stopAfterFailure(error)
            throw error
        }
    }

    /// Tries to stop the output over the bus, or failing that by dropping EN: what any failure
    /// while driving ends with. After a timeout on this chip's bus EN goes low at once: the stop's
    /// writes would each time out through their retries too (a stuck bus), a tenth of a second
    /// apiece, while the chip drives on.
    func stopAfterFailure(_ failure: any Error) {
        if (failure as? DRV2605Error)?.timedOutBus == driver.bus.name, powerOffWithoutTheBus() != nil { return }
        do {
            try stopOutput()
        } catch {
            if driver.enableLine != nil, (try? driver.disable()) != nil {
                storedPowerState = .off
                storedPreparedMode = nil
            }
        }
    }

    /// Calibration and diagnostics end with the chip in standby whatever the outcome. One that
    /// hung was ended by resetting the chip, which lost its configuration: it is written again; if
    /// even the reset failed the driver dropped EN, and the actuator is off.
    private func inStandbyAfterwards<Result>(_ body: () throws(DRV2605Error) -> Result) throws(DRV2605Error) -> Result {
        defer {
            if powerState != .off {
                storedPowerState = .standby
                storedPreparedMode = nil
            }
        }
        do {
            return try body()
        } catch {
            switch error {
            case .calibrationTimeout, .diagnosticsTimeout:
                try driver.initialize(configuration, calibration: calibration, verifyFirst: false)
            case .hungRunNotStopped where driver.enableLine != nil && !driver.isEnabled:
                storedPowerState = .off
                storedPreparedMode = nil
            default:
                break
            }
            throw error
        }
    }

    private func unchanged(_ transition: PowerTransition) -> PowerTransitionReport {
        PowerTransitionReport(transition: transition, from: powerState, to: powerState, elapsed: .zero, budget: .zero)
    }

    private func measure(_ transition: PowerTransition, to target: PowerState, budget: Duration, _ body: () throws(DRV2605Error) -> Void) throws(DRV2605Error) -> PowerTransitionReport {
        try measure(transition, from: powerState, start: driver.clock.now, to: target, budget: budget, body)
    }

    /// Runs a transition's body, measures it on the driver's clock from `start`, and records the report.
    private func measure(
        _ transition: PowerTransition,
        from: PowerState,
        start: MonotonicInstant,
        to target: PowerState,
        budget: Duration,
        _ body: () throws(DRV2605Error) -> Void
    ) throws(DRV2605Error) -> PowerTransitionReport {
        do {
            try body()
        } catch {
            // EN low after a failure (wake gave up, sleep dropped it) means the chip is off.
            if driver.enableLine != nil, !driver.isEnabled {
                storedPowerState = .off
                storedPreparedMode = nil
            }
            throw error
        }
        storedPowerState = target
        let report = PowerTransitionReport(transition: transition, from: from, to: target, elapsed: driver.clock.now - start, budget: budget)
        lastTransition = report
        if report.overran { overrunCount += 1 }
        return report
    }
}
