/// MODE.MODE (register 0x01, bits 2:0): what starts and feeds the waveform.
public enum DRV2605Mode: UInt8, Sendable, Hashable, CaseIterable, Codable {
    /// Sequencer started by writing GO.
    case internalTrigger = 0
    case externalEdgeTrigger = 1
    case externalLevelTrigger = 2
    case pwmOrAnalogInput = 3
    case audioToVibe = 4
    /// Drive follows RTP_INPUT.
    case realtimePlayback = 5
    /// Actuator diagnostics, started by GO; result in STATUS.DIAG_RESULT.
    case diagnostics = 6
    /// Auto-calibration, started by GO; result in STATUS.DIAG_RESULT and registers 0x18, 0x19, 0x1A.
    case autoCalibration = 7

    /// The MODE register byte for this mode, in or out of standby.
    public func registerValue(standby: Bool) -> UInt8 {
        DRV2605Field.standby.encode(standby ? 1 : 0) | DRV2605Field.modeSelect.encode(rawValue)
    }
}
