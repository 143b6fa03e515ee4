/// Everything the DRV2605 driver can fail with. Bus faults keep the `I2CError` (and so errno).
public enum DRV2605Error: Error, Sendable, Hashable, CustomStringConvertible {
    /// A register access failed on the bus (after `attempts` tries; transient errors are retried).
    case bus(register: DRV2605Register, I2CError, attempts: Int)
    /// STATUS.DEVICE_ID is not a DRV2604/2604L/2605/2605L.
    case unknownDevice(deviceID: UInt8, address: I2CAddress, bus: String)
    /// A register access was attempted while the driver holds EN low; the bus was not touched.
    case disabled(address: I2CAddress, bus: String)
    /// Driving the EN line failed.
    case enableLine(GPIOError)
    /// The clock could not sleep (only a real clock interrupted by the system can fail).
    case clock(String)
    /// DEV_RESET did not clear within the timeout.
    case resetTimeout(Duration)
    /// GO did not clear within the bound derived from AUTO_CAL_TIME; the chip was reset (its
    /// configuration is gone) and nothing was stored.
    case calibrationTimeout(Duration)
    /// After DEV_RESET a register did not hold its reset value.
    case resetNotVerified(register: DRV2605Register, expected: UInt8, found: UInt8)
    /// Calibration or diagnostics hung and resetting the chip failed (`underlying` says how); EN
    /// was dropped where the chip has an EN line.
    indirect case hungRunNotStopped(DRV2605Error)
    /// Auto-calibration finished with STATUS.DIAG_RESULT set (actuator missing, wrong ratings).
    case calibrationFailed(status: UInt8)
    /// Diagnostics did not finish within the timeout.
    case diagnosticsTimeout(Duration)
    /// Diagnostics finished with STATUS.DIAG_RESULT set: actuator open or shorted.
    case diagnosticsFailed(status: UInt8)
    /// STATUS reports faults (OVER_TEMP, OC_DETECT): the output stage shut down.
    case faults(Set<ActuatorFault>, status: UInt8)
    /// The sequencer steps cannot be played.
    case invalidSequence(DRV2605SequenceError)
    /// The actuator ratings cannot be turned into register values.
    case invalidRatings(DRV2605RatingsError)
    /// The identified chip cannot do what the configuration asks (e.g. a ROM library on a DRV2604).
    case unsupported(variant: DRV2605Variant, String)
    /// A real-time amplitude that is not a number.
    case invalidAmplitude(Double)

    /// For a register access that timed out through all its retries, the bus it timed out on:
    /// that bus is stuck, and stopping a chip over it would time out again while the output
    /// drives on.
    public var timedOutBus: String? {
        if case .bus(_, let error, _) = self { return error.timedOutBus }
        return nil
    }

    public var description: String {
        switch self {
        case .bus(let register, let error, let attempts):
            let tries = attempts == 1 ? "" : " after \(attempts) attempts"
            return "DRV2605 register \(register)\(tries): \(error)"
        case .unknownDevice(let id, let address, let bus):
            return "the device at \(address) on \(bus) reports DEVICE_ID \(id), which is not a DRV2604/DRV2604L (4, 6) or DRV2605/DRV2605L (3, 7)"
        case .disabled(let address, let bus):
            return "the DRV2605 at \(address) on \(bus) has EN low: wake it before accessing registers"
        case .enableLine(let error):
            return "DRV2605 EN line: \(error)"
        case .clock(let reason):
            return "clock sleep failed: \(reason)"
        case .resetTimeout(let timeout):
            return "DRV2605 DEV_RESET did not clear within \(timeout)"
        case .calibrationTimeout(let timeout):
            return "DRV2605 auto-calibration did not finish within \(timeout) (GO still set): the chip was reset and no calibration stored"
        case .resetNotVerified(let register, let expected, let found):
            return "DRV2605 did not come out of DEV_RESET: \(register) reads \(hexByte(found)), not its reset value \(hexByte(expected))"
        case .hungRunNotStopped(let underlying):
            return "DRV2605 calibration or diagnostics hung and resetting the chip failed (\(underlying)); EN was dropped if the board has an EN line"
        case .calibrationFailed(let status):
            return "DRV2605 auto-calibration failed (DIAG_RESULT set, STATUS \(hexByte(status))): check the actuator wiring and ratings"
        case .diagnosticsTimeout(let timeout):
            return "DRV2605 diagnostics did not finish within \(timeout)"
        case .diagnosticsFailed(let status):
            return "DRV2605 diagnostics failed (DIAG_RESULT set, STATUS \(hexByte(status))): actuator open or shorted"
        case .faults(let faults, let status):
            let names = faults.map(\.rawValue).sorted().joined(separator: ", ")
            return "DRV2605 reports \(names) (STATUS \(hexByte(status)))"
        case .invalidSequence(let error):
            return "invalid sequence: \(error)"
        case .invalidRatings(let error):
            return "invalid actuator ratings: \(error)"
        case .unsupported(let variant, let what):
            return "\(variant) cannot \(what)"
        case .invalidAmplitude(let amplitude):
            return "amplitude \(amplitude) is not a number in −1…1"
        }
    }
}
