/// What auto-calibration found for one actuator on one chip: store it (it is `Codable`) and
/// re-apply it after power-up with `DRV2605.apply(_:)` instead of calibrating again.
public struct DRV2605CalibrationResult: Sendable, Hashable, Codable {
    /// A_CAL_COMP (0x18): compensation for resistive losses.
    public var compensation: UInt8
    /// A_CAL_BEMF (0x19): back-EMF normalisation.
    public var backEMF: UInt8
    /// FEEDBACK_CONTROL.BEMF_GAIN (0x1A bits 1:0).
    public var backEMFGain: UInt8

    /// A result as read from (or stored for) the chip.
    public init(compensation: UInt8, backEMF: UInt8, backEMFGain: UInt8) {
        self.compensation = compensation
        self.backEMF = backEMF
        self.backEMFGain = backEMFGain
    }
}

extension DRV2605 {
    /// The result of `calibrate(_:)`.
    public typealias CalibrationResult = DRV2605CalibrationResult
}
