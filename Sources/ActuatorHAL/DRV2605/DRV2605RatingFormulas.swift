#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// The datasheet's ratings ↔ register formulas (TI DRV2605L datasheet, "Programming"), each in
// one place, each with its inverse for register dumps. Register values are rounded to the nearest
// step and clamped to the field's range.

/// RATED_VOLTAGE (0x16): the steady-state full-scale drive in closed loop.
public enum DRV2605RatedVoltage {
    /// LRA closed loop: `V_rms = 20.58e-3 × RATED_VOLTAGE / sqrt(1 − (4·t_sample + 300 µs)·f_LRA)`.
    public static let lraVoltsPerStep = 20.58e-3
    /// ERM closed loop: `V_avg = 21.18e-3 × RATED_VOLTAGE`.
    public static let ermVoltsPerStep = 21.18e-3

    /// The register value for an LRA of `rmsVolts` at `frequency` hertz.
    public static func lraRegister(rmsVolts: Double, frequency: Double, sampleTime: DRV2605SampleTime) throws(DRV2605RatingsError) -> UInt8 {
        try requirePositive(rmsVolts, "rated voltage")
        let factor = try lraFactor(frequency: frequency, sampleTime: sampleTime)
        return clampedRegister(rmsVolts * factor / lraVoltsPerStep, maximum: 255)
    }

    /// The LRA RMS voltage a register value stands for.
    public static func lraVolts(register: UInt8, frequency: Double, sampleTime: DRV2605SampleTime) throws(DRV2605RatingsError) -> Double {
        lraVoltsPerStep * Double(register) / (try lraFactor(frequency: frequency, sampleTime: sampleTime))
    }

    /// The register value for an ERM of `averageVolts`.
    public static func ermRegister(averageVolts: Double) throws(DRV2605RatingsError) -> UInt8 {
        try requirePositive(averageVolts, "rated voltage")
        return clampedRegister(averageVolts / ermVoltsPerStep, maximum: 255)
    }

    /// `sqrt(1 − (4·t_sample + 300 µs)·f)`, rejecting frequencies that make it imaginary.
    static func lraFactor(frequency: Double, sampleTime: DRV2605SampleTime) throws(DRV2605RatingsError) -> Double {
        try requireFrequency(frequency)
        let radicand = 1 - (4 * sampleTime.seconds + 300e-6) * frequency
        guard radicand > 0 else { throw .frequencyTooHighForSampleTime(frequency: frequency, sampleTime: sampleTime) }
        return radicand.squareRoot()
    }
}

/// OD_CLAMP (0x17): the peak voltage the output never exceeds; full scale in open loop.
///
/// Uses `V_peak = 21.22e-3 × OD_CLAMP` in every mode. The current DRV2605L datasheet (SLOS854D)
/// states OD_CLAMP "always represents the peak voltage that is allowed, regardless of the mode";
/// the older DRV2605 revisions print a different LRA closed-loop equation (an averaging factor of
/// DRIVE_TIME/IDISS_TIME/BLANKING_TIME), and an erratum notes two equations were swapped in rev C
/// (apache/mynewt-core #757). The LRA open-loop RMS form `21.64e-3 × OD_CLAMP × sqrt(1 − 800 µs·f)`
/// describes the same clamp as the RMS of the open-loop square wave; ratings give a peak, so the
/// peak equation applies.
public enum DRV2605OverdriveClamp {
    public static let voltsPerStep = 21.22e-3

    /// The register value for a peak clamp of `peakVolts`.
    public static func register(peakVolts: Double) throws(DRV2605RatingsError) -> UInt8 {
        try requirePositive(peakVolts, "overdrive voltage")
        return clampedRegister(peakVolts / voltsPerStep, maximum: 255)
    }

    /// The peak voltage a register value stands for.
    public static func volts(register: UInt8) -> Double { voltsPerStep * Double(register) }
}

/// Full-scale output in open loop, where OD_CLAMP is the reference and RATED_VOLTAGE is ignored
/// (DRV2605L datasheet SLOS854D, "Rated Voltage Programming", Equations 4 and 5).
public enum DRV2605OpenLoopFullScale {
    /// ERM: `V_avg = 21.32e-3 × OD_CLAMP` (Equation 4).
    public static let ermVoltsPerStep = 21.32e-3
    /// LRA: `V_rms = 21.64e-3 × OD_CLAMP × sqrt(1 − 800 µs × f)` (Equation 5).
    public static let lraVoltsPerStep = 21.64e-3

    /// The average voltage an open-loop ERM sees at full scale.
    public static func ermAverageVolts(overdriveClamp register: UInt8) -> Double {
        ermVoltsPerStep * Double(register)
    }

    /// The RMS voltage an open-loop LRA sees at full scale when driven at `frequency` hertz; the
    /// lower the frequency, the higher the RMS.
    public static func lraRMSVolts(overdriveClamp register: UInt8, frequency: Double) -> Double {
        lraVoltsPerStep * Double(register) * max(0, 1 - 800e-6 * frequency).squareRoot()
    }
}

/// CONTROL1.DRIVE_TIME: for an LRA the initial guess of half its period,
/// `ms = DRIVE_TIME × 0.1 + 0.5` (0.5–3.6 ms, so 139–1000 Hz; outside that the value is clamped and
/// auto-resonance corrects it). For an ERM it sets the back-EMF sampling rate instead
/// (`ms = DRIVE_TIME × 0.2 + 1`); the reset value 19 (4.8 ms) is kept.
public enum DRV2605DriveTime {
    /// The reset value, used for ERMs.
    public static let ermDefault: UInt8 = 0x13

    /// The register value for an LRA resonating at `frequency` hertz.
    public static func lraRegister(frequency: Double) throws(DRV2605RatingsError) -> UInt8 {
        try requireFrequency(frequency)
        let halfPeriodMilliseconds = 1000 / (2 * frequency)
        return clampedRegister((halfPeriodMilliseconds - 0.5) / 0.1, maximum: DRV2605Field.driveTime.maximum)
    }

    /// The LRA half period, in milliseconds, a register value stands for.
    public static func lraMilliseconds(register: UInt8) -> Double { Double(register) * 0.1 + 0.5 }
}

/// OL_LRA_PERIOD (0x20): the open-loop LRA drive period in 98.46 µs steps (7 bits, so ≥ 80 Hz).
public enum DRV2605OpenLoopPeriod {
    public static let secondsPerStep = 98.46e-6

    /// The register value for driving at `frequency` hertz.
    public static func register(frequency: Double) throws(DRV2605RatingsError) -> UInt8 {
        try requireFrequency(frequency)
        return clampedRegister(1 / frequency / secondsPerStep, maximum: DRV2605Field.openLoopPeriod.maximum)
    }

    /// The lowest frequency the register can set (its largest period, 127 steps): ≈ 80 Hz.
    public static var lowestFrequency: Double { 1 / (Double(DRV2605Field.openLoopPeriod.maximum) * secondsPerStep) }

    /// The drive frequency a register value stands for (`nil` for 0).
    public static func frequency(register: UInt8) -> Double? {
        register == 0 ? nil : 1 / (Double(register) * secondsPerStep)
    }
}

private func requirePositive(_ volts: Double, _ name: String) throws(DRV2605RatingsError) {
    guard volts.isFinite, volts > 0 else { throw .invalidVoltage(name: name, volts) }
}

private func requireFrequency(_ frequency: Double) throws(DRV2605RatingsError) {
    guard frequency.isFinite, frequency > 0 else { throw .invalidResonantFrequency(frequency) }
}

/// Rounds to the nearest register step within 0…`maximum`.
private func clampedRegister(_ exact: Double, maximum: UInt8) -> UInt8 {
    UInt8(min(max(exact.rounded(), 0), Double(maximum)))
}
