import ActuatorHAL

/// A calibration result as commands print it.
struct CalibrationReport: Encodable, Equatable {
    /// A_CAL_COMP, A_CAL_BEMF and BEMF_GAIN as the chip holds them.
    var compensation: Int
    var backEMF: Int
    var backEMFGain: Int
    var calibratedAt: String

    init(_ entry: CalibrationStore.Entry) {
        compensation = Int(entry.result.compensation)
        backEMF = Int(entry.result.backEMF)
        backEMFGain = Int(entry.result.backEMFGain)
        calibratedAt = entry.calibratedAt
    }

    var text: String {
        "A_CAL_COMP \(hexByte(UInt8(compensation))), A_CAL_BEMF \(hexByte(UInt8(backEMF))), BEMF_GAIN \(backEMFGain) (calibrated \(calibratedAt))"
    }
}
