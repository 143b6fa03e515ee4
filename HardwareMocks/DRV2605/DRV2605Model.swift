#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ActuatorHAL

/// A register-accurate model of a TI DRV2605-class haptic driver (DRV2604, DRV2604L, DRV2605,
/// DRV2605L) on a `SimulatedI2CBus`, with its EN pin on a `SimulatedOutputLine`.
///
/// Everything runs on the `VirtualClock`: nothing happens between bus accesses, and time-dependent
/// state (GO clearing when a sequence or calibration ends, the drive it leaves behind) is brought up
/// to `clock.now` lazily on every access, so a test only has to advance the clock.
///
/// Model choices where the datasheet is silent or the model simplifies (each test relies on them):
/// - **EN low** is shutdown: the chip still ACKs its address (TI E2E 1065455, 1174173) but ignores
///   writes and reads return 0x00; output stops at once and the register file is LOST (back to reset
///   values), so a driver must read back and re-apply its configuration after wake.
/// - **After EN rises** the chip needs 250 µs (TI-DS initialization procedure); accesses before then
///   are ignored like accesses with EN low. A chip whose EN is already high when the model is built
///   counts as long powered.
/// - **DEV_RESET** restores the reset values at once and reads back as 0.
/// - **GO** in internal-trigger mode plays the sequencer (see `DRV2605SequencePlan`); in
///   diagnostics and auto-calibration modes it runs those routines; in the other modes (external
///   trigger, PWM/analog, audio-to-vibe, RTP) the model ignores it. GO with STANDBY set is ignored.
///   Writing GO = 0 stops a sequence at once; the datasheet does not say it cancels calibration or
///   diagnostics, so here it does not. Leaving the mode of a run, entering STANDBY, DEV_RESET and
///   EN low stop any run.
/// - **RTP**: in mode 5 out of standby, RTP_INPUT drives the output from the time of the write,
///   read as the datasheet's "Data Formats for Waveform Playback" figures say, by loop
///   (CONTROL3.ERM_OPEN_LOOP / LRA_OPEN_LOOP for the selected actuator), CONTROL2.BIDIR_INPUT and
///   CONTROL3.DATA_FORMAT_RTP. Open loop: mid-scale is zero, below it reverse drive (signed 0x81 →
///   −1, 0x00 → 0, 0x7F → 1; unsigned 0x00 → −1, 0x80 → 0, 0xFF → 1). Closed loop bidirectional:
///   mid-scale and below are zero (signed 0x00, unsigned 0x80), 0x7F / 0xFF full. Closed loop
///   unidirectional: signed 0x00 → 0 … 0x7F → 1 (negative codes zero), unsigned 0x00 → 0 … 0xFF → 1.
///   Open loop with unidirectional input, which the datasheet rules out, reads as unidirectional.
/// - **Output voltage** (`DriveTimeline.Change.volts`): amplitude × the mode's full scale, from the
///   datasheet's equations: closed loop RATED_VOLTAGE (ERM `21.18 mV × code` average; LRA
///   `20.58 mV × code / sqrt(1 − (4·t_sample + 300 µs)·f)` RMS), open loop OD_CLAMP (ERM
///   `21.32 mV × code` average; LRA `21.64 mV × code × sqrt(1 − 800 µs·f)` RMS), f the drive
///   frequency. Closed loop's momentary automatic overdrive is not modelled.
/// - **Frequency** of the drive: ERM (FEEDBACK_CONTROL.N_ERM_LRA = 0) → none (DC); LRA closed loop
///   → `lraResonanceHz`, the attached actuator's resonance the chip tracks; LRA open loop → from
///   OL_LRA_PERIOD (98.46 µs units) on the L parts. LRA_PERIOD reports the last driven LRA period.
/// - **STATUS**: DIAG_RESULT and OVER_TEMP clear when STATUS is read (TI-DS STATUS: "clears upon
///   read"); the datasheet says no such thing of OC_DETECT, so it stays latched until DEV_RESET or EN
///   low. An injected fault is a momentary event: output stops at once and any run ends (GO clears).
/// - **VBAT** reports `supplyVoltage` (default 3.6 V) as V × 255 / 5.6.
/// - **Broadcast address 0x58** (DRV2605L, TI E2E FAQ 1065455): `broadcastReceiver` is the chip
///   as seen at 0x58 — writes land in the same register file as at 0x5A, so one GO there starts
///   every DRV2605L on the wire. The other parts do not acknowledge it.
/// - **Not modelled**: the DRV2604 RAM and its registers (its sequencer plays silence), the
///   external trigger, PWM/analog and audio-to-vibe inputs, HI_Z, FB_STS, and the duration of
///   DEV_RESET.
///
/// Like `SimulatedI2CBus`, the model is meant to be used from one thread at a time.
public final class DRV2605Model: SimulatedI2CDevice {
    /// What auto-calibration does when it runs.
    public enum CalibrationOutcome: Sendable {
        /// GO clears after the AUTO_CAL_TIME duration, results written, DIAG_RESULT = 0.
        case succeeds
        /// GO clears after the AUTO_CAL_TIME duration, results untouched, DIAG_RESULT = 1.
        case failsDiagnostic
        /// GO never clears (until STANDBY, DEV_RESET or EN low; GO = 0 does not cancel it).
        case neverFinishes
    }

    /// Time from EN rising to the first access the chip honours (TI-DS initialization procedure).
    public static let startupTime: Duration = .microseconds(250)

    /// The family member this chip is; sets DEVICE_ID and the reset values.
    public let variant: Variant
    /// What the next auto-calibration does; default `.succeeds`.
    public var calibrationOutcome: CalibrationOutcome = .succeeds
    /// Whether diagnostics (mode 6) find the actuator healthy; default true.
    public var diagnosticsPass = true
    /// Resonant frequency of the attached LRA in hertz, which the chip follows in closed loop.
    /// Default 175 Hz, the `sim` board's actuator.
    public var lraResonanceHz: Double = 175
    /// Supply voltage VBAT reports, in volts; default 3.6 V.
    public var supplyVoltage: Double = 3.6

    private let clock: VirtualClock
    private let enableLine: SimulatedOutputLine
    private var registers: [UInt8]
    private var pointer: UInt8 = 0
    /// When EN last rose; nil while EN is low.
    private var poweredSince: MonotonicInstant?
    private var run: DRV2605EngineRun?
    private var timeline = DriveTimeline()

    /// A chip of `variant` whose EN pin is `enableLine`; it follows every level the line is driven to.
    public init(variant: Variant = .drv2605L, clock: VirtualClock, enableLine: SimulatedOutputLine) {
        self.variant = variant
        self.clock = clock
        self.enableLine = enableLine
        registers = variant.resetValues
        poweredSince = enableLine.level == .high ? clock.now - Self.startupTime : nil
        enableLine.observe { [weak self] level in
            self?.enableLineChanged(to: level)
        }
    }

    /// EN is high.
    public var isEnabled: Bool {
        enableLine.level == .high
    }

    /// The output drive over time, up to `clock.now`: amplitude −1…1 of full scale and the
    /// frequency when known (nil for ERM/DC drive).
    public var drive: DriveTimeline {
        settle()
        return timeline
    }

    /// When set, `drive` keeps only the newest changes, so a long run does not grow with every one.
    public var driveHistoryLimit: Int? {
        get { timeline.limit }
        set { timeline.limit = newValue }
    }

    /// The register at `address` as of `clock.now`, for test inspection: bypasses EN, the
    /// startup delay and read side effects (clear-on-read flags stay set). Reserved addresses read 0.
    public func register(_ address: UInt8) -> UInt8 {
        settle()
        guard let register = Register(rawValue: address) else { return 0 }
        return value(of: register)
    }

    /// Simulates an over-temperature shutdown: sets STATUS.OVER_TEMP (bit 1) and stops the output.
    public func injectOverTemperature() {
        injectFault(Field.overTemperature)
    }

    /// Simulates an over-current (shorted load) event: sets STATUS.OC_DETECT (bit 0) and stops the output.
    public func injectOverCurrent() {
        injectFault(Field.overCurrent)
    }

    /// Simulates a reset of the chip while EN stays high (a supply dip below the chip's undervoltage
    /// threshold, an ESD event): every register goes back to its reset value and the output stops,
    /// as at power-up, without anything on the bus or the EN line saying so.
    public func injectPowerOnReset() {
        settle()
        resetRegisterFile()
    }

    /// The ESTIMATED playback time of ROM effect `id` (1–123) as the model plays it; zero for ids
    /// the libraries do not define. TI publishes no duration table: see `DRV2605ROMEffect`.
    public static func estimatedDuration(ofEffect id: UInt8) -> Duration {
        DRV2605ROMEffect.effect(id)?.estimatedDuration ?? .zero
    }

    /// The chip at the broadcast address 0x58: attach it there beside the chip at 0x5A.
    public var broadcastReceiver: any SimulatedI2CDevice { BroadcastReceiver(chip: self) }

    /// The chip as it answers 0x58: the same registers, acknowledged by the DRV2605L only.
    private final class BroadcastReceiver: SimulatedI2CDevice {
        unowned let chip: DRV2605Model
        init(chip: DRV2605Model) { self.chip = chip }
        var acknowledges: Bool { chip.variant == .drv2605L }
        func receive(_ bytes: [UInt8]) throws(I2CError) { try chip.receive(bytes) }
        func transmit(count: Int) throws(I2CError) -> [UInt8] { try chip.transmit(count: count) }
    }

    // MARK: SimulatedI2CDevice

    /// The chip answers its address whatever EN is (TI E2E 1065455, 1174173).
    public var acknowledges: Bool { true }

    /// A write message: the first byte sets the register pointer, each further byte is written
    /// where the pointer is and advances it (auto-increment). Ignored while EN is low or starting.
    public func receive(_ bytes: [UInt8]) throws(I2CError) {
        settle()
        guard isAccessible, let address = bytes.first else { return }
        pointer = address
        for byte in bytes.dropFirst() {
            write(byte, to: pointer)
            pointer &+= 1
        }
    }

    /// A read message: `count` bytes from the register pointer on, advancing it; zeros while EN
    /// is low or starting. Reading STATUS clears its clear-on-read flags.
    public func transmit(count: Int) throws(I2CError) -> [UInt8] {
        settle()
        guard isAccessible else { return [UInt8](repeating: 0, count: max(count, 0)) }
        var bytes: [UInt8] = []
        for _ in 0..<max(count, 0) {
            bytes.append(read(pointer))
            pointer &+= 1
        }
        return bytes
    }

    // MARK: Register access

    /// EN is high and the startup time has passed.
    private var isAccessible: Bool {
        guard let poweredSince else { return false }
        return clock.now - poweredSince >= Self.startupTime
    }

    private func value(of register: Register) -> UInt8 {
        switch register {
        case .supplyVoltage:
            return UInt8(min(max((supplyVoltage * 255 / 5.6).rounded(), 0), 255))
        default:
            return registers[register.index]
        }
    }

    private func read(_ address: UInt8) -> UInt8 {
        guard let register = Register(rawValue: address) else { return 0 }
        let result = value(of: register)
        if register == .status {
            registers[Register.status.index] &= ~(Field.diagnosticResult | Field.overTemperature)
        }
        return result
    }

    private func write(_ byte: UInt8, to address: UInt8) {
        guard let register = Register(rawValue: address) else { return }
        let mask = variant.writableMask(register)
        let old = registers[register.index]
        let new = (old & ~mask) | (byte & mask)
        switch register {
        case .mode:
            writeMode(new, previous: old)
        case .go:
            writeGo(new)
        case .rtpInput, .control3, .feedbackControl, .openLoopLRAPeriod:
            // These change what RTP_INPUT means (format, actuator, drive period) as soon as written.
            registers[register.index] = new
            applyRealTimeInput()
        default:
            registers[register.index] = new
        }
    }

    private var mode: UInt8 { registers[Register.mode.index] }
    private var isStandby: Bool { mode & Field.standby != 0 }
    private var operatingMode: OperatingMode? { OperatingMode(rawValue: mode & Field.modeMask) }

    private func writeMode(_ value: UInt8, previous: UInt8) {
        if value & Field.deviceReset != 0 {
            resetRegisterFile()
            return
        }
        registers[Register.mode.index] = value
        if value != previous {
            stopOutput()
            applyRealTimeInput()
        }
    }

    private func writeGo(_ value: UInt8) {
        guard value & Field.go != 0 else {
            // Only a sequence stops: in RTP mode GO has no function and the output keeps following
            // RTP_INPUT. The datasheet does not say that clearing GO cancels auto-calibration or
            // diagnostics, so the model keeps them running (DEV_RESET, STANDBY or EN low end them).
            if run?.kind == .sequence {
                stopOutput()
            }
            return
        }
        guard run == nil, !isStandby, let operatingMode else { return }
        switch operatingMode {
        case .internalTrigger: startSequence()
        case .autoCalibration: startCalibration()
        case .diagnostics: startDiagnostics()
        default: return
        }
    }

    // MARK: Engine runs

    private func startSequence() {
        let slots = Register.sequencerSlots.map { registers[$0.index] }
        let library = registers[Register.librarySelection.index] & Field.librarySelectionMask
        let plan = DRV2605SequencePlan(slots: slots, start: clock.now, frequency: driveFrequency,
                                       libraryIsEmpty: !variant.playsEffects(fromLibrary: library))
        begin(DRV2605EngineRun(kind: .sequence, end: plan.end, pendingDrive: plan.changes))
    }

    private func startCalibration() {
        let control4 = registers[Register.control4.index]
        let autoCalibrationTime = (control4 & Field.autoCalibrationTimeMask) >> Field.autoCalibrationTimeShift
        let end: MonotonicInstant? = calibrationOutcome == .neverFinishes
            ? nil
            : clock.now + DRV2605CalibrationModel.calibrationDuration(autoCalibrationTime: autoCalibrationTime)
        beginActuatorCheck(.calibration, end: end)
    }

    private func startDiagnostics() {
        beginActuatorCheck(.diagnostics, end: clock.now + DRV2605CalibrationModel.diagnosticsDuration)
    }

    /// Calibration and diagnostics drive the actuator at full scale for their whole length.
    private func beginActuatorCheck(_ kind: DRV2605EngineRun.Kind, end: MonotonicInstant?) {
        var drive = [DriveTimeline.Change(time: clock.now, amplitude: 1, frequency: driveFrequency)]
        if let end { drive.append(.init(time: end, amplitude: 0, frequency: nil)) }
        begin(DRV2605EngineRun(kind: kind, end: end, pendingDrive: drive))
    }

    private func begin(_ newRun: DRV2605EngineRun) {
        run = newRun
        registers[Register.go.index] = Field.go
        settle()
    }

    /// Brings the model up to `clock.now`: records due output changes and finishes a run whose time is up.
    private func settle() {
        guard var current = run else { return }
        let now = clock.now
        for change in current.takeDrive(through: now) { record(change) }
        run = current
        guard current.isFinished(at: now) else { return }
        run = nil
        registers[Register.go.index] = 0
        switch current.kind {
        case .sequence: break
        case .calibration: finishCalibration()
        case .diagnostics: setDiagnosticResult(failed: !diagnosticsPass)
        }
    }

    private func finishCalibration() {
        guard calibrationOutcome == .succeeds else {
            setDiagnosticResult(failed: true)
            return
        }
        let rated = registers[Register.ratedVoltage.index]
        registers[Register.autoCalibrationCompensation.index] = DRV2605CalibrationModel.compensation(ratedVoltage: rated)
        registers[Register.autoCalibrationBackEMF.index] = DRV2605CalibrationModel.backEMF(ratedVoltage: rated)
        let feedback = registers[Register.feedbackControl.index] & ~Field.backEMFGainMask
        registers[Register.feedbackControl.index] = feedback | DRV2605CalibrationModel.backEMFGain(ratedVoltage: rated)
        setDiagnosticResult(failed: false)
    }

    private func setDiagnosticResult(failed: Bool) {
        let status = registers[Register.status.index] & ~Field.diagnosticResult
        registers[Register.status.index] = status | (failed ? Field.diagnosticResult : 0)
    }

    /// Ends any run now, leaving GO clear and its remaining output unplayed.
    private func stopRun() {
        guard run != nil else { return }
        run = nil
        registers[Register.go.index] = 0
    }

    // MARK: Output

    /// RTP drives the output whenever the chip is in RTP mode out of standby.
    private func applyRealTimeInput() {
        guard operatingMode == .realTimePlayback, !isStandby, poweredSince != nil else { return }
        let amplitude = realTimeAmplitude(of: registers[Register.rtpInput.index])
        record(.init(time: clock.now, amplitude: amplitude, frequency: amplitude == 0 ? nil : driveFrequency))
    }

    private var isLRA: Bool { registers[Register.feedbackControl.index] & Field.lraSelected != 0 }

    /// Open loop for the selected actuator kind (CONTROL3.LRA_OPEN_LOOP or ERM_OPEN_LOOP).
    private var isOpenLoop: Bool {
        registers[Register.control3.index] & (isLRA ? Field.lraOpenLoop : Field.ermOpenLoop) != 0
    }

    /// An RTP_INPUT code as a fraction of full scale (see the type's notes for the table).
    private func realTimeAmplitude(of code: UInt8) -> Double {
        let isUnsigned = registers[Register.control3.index] & Field.unsignedRTP != 0
        let isBidirectional = registers[Register.control2.index] & Field.bidirectionalInput != 0
        guard isBidirectional else {
            return isUnsigned ? Double(code) / 255 : max(Double(Int8(bitPattern: code)), 0) / 127
        }
        let fromMidScale = isUnsigned ? Double(Int(code) - 128) : Double(Int8(bitPattern: code))
        let amplitude = max(fromMidScale / 127, -1)
        return isOpenLoop ? amplitude : max(amplitude, 0)
    }

    /// The output voltage (RMS for an LRA, average for an ERM) at full scale in the current loop,
    /// from the datasheet's rated-voltage and clamp equations (see the type's notes).
    private func fullScaleVolts(frequency: Double?) -> Double {
        let code = Double(registers[(isOpenLoop ? Register.overdriveClamp : Register.ratedVoltage).index])
        let hertz = frequency ?? lraResonanceHz
        switch (isOpenLoop, isLRA) {
        case (true, true): return 21.64e-3 * code * max(0, 1 - 800e-6 * hertz).squareRoot()
        case (true, false): return 21.32e-3 * code
        case (false, true):
            let sampleTime = Double(150 + 50 * Int((registers[Register.control2.index] & Field.sampleTimeMask) >> Field.sampleTimeShift)) * 1e-6
            let radicand = 1 - (4 * sampleTime + 300e-6) * hertz
            return radicand > 0 ? 20.58e-3 * code / radicand.squareRoot() : .infinity
        case (false, false): return 21.18e-3 * code
        }
    }

    /// The frequency the chip drives at: nil for an ERM, the tracked resonance for a closed-loop
    /// LRA, OL_LRA_PERIOD for an open-loop LRA on parts that have that register.
    private var driveFrequency: Double? {
        guard registers[Register.feedbackControl.index] & Field.lraSelected != 0 else { return nil }
        let openLoopPeriod = registers[Register.openLoopLRAPeriod.index]
        if registers[Register.control3.index] & Field.lraOpenLoop != 0, variant.hasLRAOpenLoopRegisters, openLoopPeriod > 0 {
            return 1 / (Double(openLoopPeriod) * Self.lraPeriodUnit)
        }
        return lraResonanceHz
    }

    /// One LSB of OL_LRA_PERIOD and LRA_PERIOD, in seconds (TI-DS: 98.46 µs).
    static let lraPeriodUnit = 98.46e-6

    private func record(_ change: DriveTimeline.Change) {
        // Silence is where every timeline starts, so it is only worth recording after some drive.
        if timeline.changes.isEmpty, change.amplitude == 0 { return }
        var change = change
        change.volts = change.amplitude == 0 ? 0 : change.amplitude * fullScaleVolts(frequency: change.frequency)
        timeline.record(change)
        if let frequency = change.frequency, frequency > 0 {
            let period = (1 / frequency / Self.lraPeriodUnit).rounded()
            registers[Register.lraResonancePeriod.index] = UInt8(min(max(period, 0), 255))
        }
    }

    /// Ends any run and silences the output now.
    private func stopOutput() {
        stopRun()
        record(.init(time: clock.now, amplitude: 0, frequency: nil))
    }

    // MARK: Power, reset, faults

    private func enableLineChanged(to level: LineLevel) {
        settle()
        switch level {
        case .high:
            if poweredSince == nil { poweredSince = clock.now }
        case .low:
            guard poweredSince != nil else { return }
            poweredSince = nil
            resetRegisterFile()
        }
    }

    private func resetRegisterFile() {
        stopOutput()
        registers = variant.resetValues
        pointer = 0
    }

    private func injectFault(_ flag: UInt8) {
        settle()
        registers[Register.status.index] |= flag
        stopOutput()
    }
}
