/// How the model makes up auto-calibration results and how long calibration and diagnostics take.
///
/// The formulas are MODEL CHOICES, not TI's algorithm (which is not published): they only have to
/// give plausible, repeatable values that move with RATED_VOLTAGE, so a driver that stores and
/// re-applies a `CalibrationResult` can be tested.
enum DRV2605CalibrationModel {
    /// A_CAL_COMP: the datasheet's compensation is 1 + A_CAL_COMP / 255; real parts report values
    /// near 0x0C–0x0D (TI E2E threads 417442, 1174173). The model adds one step per 64 codes of rated voltage.
    static func compensation(ratedVoltage: UInt8) -> UInt8 {
        0x0C + ratedVoltage / 64
    }

    /// A_CAL_BEMF: back-EMF scales with drive voltage; 7/4 × RATED_VOLTAGE gives 0x6C for the
    /// DRV2605L default 0x3E, the value a calibrated part reported in TI E2E thread 1174173. Kept in
    /// 0x20…0xF0 so the result never looks like a rail.
    static func backEMF(ratedVoltage: UInt8) -> UInt8 {
        UInt8(min(max(Int(ratedVoltage) * 7 / 4, 0x20), 0xF0))
    }

    /// FEEDBACK_CONTROL.BEMF_GAIN: a higher rated voltage gives more back-EMF, so less gain.
    static func backEMFGain(ratedVoltage: UInt8) -> UInt8 {
        switch ratedVoltage {
        case ..<0x50: return 2
        case ..<0xA0: return 1
        default: return 0
        }
    }

    /// Calibration length for CONTROL4.AUTO_CAL_TIME (0…3): the middle of the datasheet's range
    /// (150–350, 250–450, 500–700, 1000–1200 ms; TI-DS CONTROL4), so a driver polling against the
    /// range's upper bound sees it finish and one that waits less than the lower bound does not.
    static func calibrationDuration(autoCalibrationTime: UInt8) -> Duration {
        switch autoCalibrationTime & 0x03 {
        case 0: return .milliseconds(250)
        case 1: return .milliseconds(350)
        case 2: return .milliseconds(600)
        default: return .milliseconds(1100)
        }
    }

    /// Diagnostics length: the datasheet gives none; an ESTIMATE of a short actuator check.
    static let diagnosticsDuration: Duration = .milliseconds(100)
}
