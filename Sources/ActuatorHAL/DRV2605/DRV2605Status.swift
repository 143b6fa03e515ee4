/// The STATUS register (0x00), decoded.
public struct DRV2605Status: Sendable, Hashable, Codable {
    public var rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// DEVICE_ID (bits 7:5).
    public var deviceID: UInt8 { DRV2605Field.deviceID.value(in: rawValue) }
    /// The variant DEVICE_ID names, if any.
    public var variant: DRV2605Variant? { DRV2605Variant(deviceID: deviceID) }
    /// DIAG_RESULT: the last calibration or diagnostics failed (valid once GO has cleared).
    public var diagnosticFailed: Bool { DRV2605Field.diagnosticResult.isSet(in: rawValue) }
    /// FB_STS: back-EMF feedback status.
    public var feedbackStatus: Bool { DRV2605Field.feedbackStatus.isSet(in: rawValue) }
    /// OVER_TEMP: the die overheated and the output shut down.
    public var overTemperature: Bool { DRV2605Field.overTemperature.isSet(in: rawValue) }
    /// OC_DETECT: overcurrent on the output (shorted actuator).
    public var overCurrent: Bool { DRV2605Field.overCurrent.isSet(in: rawValue) }

    /// OVER_TEMP and OC_DETECT as actuator faults.
    public var faults: Set<ActuatorFault> {
        var faults: Set<ActuatorFault> = []
        if overTemperature { faults.insert(.overTemperature) }
        if overCurrent { faults.insert(.overCurrent) }
        return faults
    }
}
