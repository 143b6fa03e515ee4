/// The DRV2605-family register map (DRV2605L numbering), written once, like the `DRV260X_*`
/// constants of Linux `drivers/input/misc/drv260x.c`. Bit fields of each register are in
/// `DRV2605Field`.
public enum DRV2605Register: UInt8, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    /// 0x00 STATUS.
    case status = 0x00
    /// 0x01 MODE.
    case mode = 0x01
    /// 0x02 RTP_INPUT.
    case realtimeInput = 0x02
    /// 0x03 LIBRARY_SEL.
    case librarySelect = 0x03
    /// 0x04 WAV_FRM_SEQ1.
    case waveformSequence1 = 0x04
    /// 0x05 WAV_FRM_SEQ2.
    case waveformSequence2 = 0x05
    /// 0x06 WAV_FRM_SEQ3.
    case waveformSequence3 = 0x06
    /// 0x07 WAV_FRM_SEQ4.
    case waveformSequence4 = 0x07
    /// 0x08 WAV_FRM_SEQ5.
    case waveformSequence5 = 0x08
    /// 0x09 WAV_FRM_SEQ6.
    case waveformSequence6 = 0x09
    /// 0x0A WAV_FRM_SEQ7.
    case waveformSequence7 = 0x0A
    /// 0x0B WAV_FRM_SEQ8.
    case waveformSequence8 = 0x0B
    /// 0x0C GO.
    case go = 0x0C
    /// 0x0D ODT.
    case overdriveTimeOffset = 0x0D
    /// 0x0E SPT.
    case sustainPositiveTimeOffset = 0x0E
    /// 0x0F SNT.
    case sustainNegativeTimeOffset = 0x0F
    /// 0x10 BRT.
    case brakeTimeOffset = 0x10
    /// 0x11 ATH_CTRL.
    case audioToVibeControl = 0x11
    /// 0x12 ATH_MIN_INPUT.
    case audioToVibeMinimumInput = 0x12
    /// 0x13 ATH_MAX_INPUT.
    case audioToVibeMaximumInput = 0x13
    /// 0x14 ATH_MIN_DRIVE.
    case audioToVibeMinimumOutput = 0x14
    /// 0x15 ATH_MAX_DRIVE.
    case audioToVibeMaximumOutput = 0x15
    /// 0x16 RATED_VOLTAGE.
    case ratedVoltage = 0x16
    /// 0x17 OD_CLAMP.
    case overdriveClamp = 0x17
    /// 0x18 A_CAL_COMP.
    case autoCalibrationCompensation = 0x18
    /// 0x19 A_CAL_BEMF.
    case autoCalibrationBackEMF = 0x19
    /// 0x1A FEEDBACK_CONTROL.
    case feedbackControl = 0x1A
    /// 0x1B CONTROL1.
    case control1 = 0x1B
    /// 0x1C CONTROL2.
    case control2 = 0x1C
    /// 0x1D CONTROL3.
    case control3 = 0x1D
    /// 0x1E CONTROL4.
    case control4 = 0x1E
    /// 0x1F CONTROL5.
    case control5 = 0x1F
    /// 0x20 OL_LRA_PERIOD.
    case openLoopLRAPeriod = 0x20
    /// 0x21 VBAT.
    case supplyVoltage = 0x21
    /// 0x22 LRA_PERIOD.
    case lraPeriod = 0x22

    /// The eight sequencer slots, in playback order.
    public static let waveformSequence: [DRV2605Register] = [
        .waveformSequence1, .waveformSequence2, .waveformSequence3, .waveformSequence4,
        .waveformSequence5, .waveformSequence6, .waveformSequence7, .waveformSequence8,
    ]

    /// The register's name as the datasheet writes it, for dumps and error messages.
    public var datasheetName: String {
        switch self {
        case .status: "STATUS"
        case .mode: "MODE"
        case .realtimeInput: "RTP_INPUT"
        case .librarySelect: "LIBRARY_SEL"
        case .waveformSequence1, .waveformSequence2, .waveformSequence3, .waveformSequence4,
             .waveformSequence5, .waveformSequence6, .waveformSequence7, .waveformSequence8:
            "WAV_FRM_SEQ\(rawValue - DRV2605Register.waveformSequence1.rawValue + 1)"
        case .go: "GO"
        case .overdriveTimeOffset: "ODT"
        case .sustainPositiveTimeOffset: "SPT"
        case .sustainNegativeTimeOffset: "SNT"
        case .brakeTimeOffset: "BRT"
        case .audioToVibeControl: "ATH_CTRL"
        case .audioToVibeMinimumInput: "ATH_MIN_INPUT"
        case .audioToVibeMaximumInput: "ATH_MAX_INPUT"
        case .audioToVibeMinimumOutput: "ATH_MIN_DRIVE"
        case .audioToVibeMaximumOutput: "ATH_MAX_DRIVE"
        case .ratedVoltage: "RATED_VOLTAGE"
        case .overdriveClamp: "OD_CLAMP"
        case .autoCalibrationCompensation: "A_CAL_COMP"
        case .autoCalibrationBackEMF: "A_CAL_BEMF"
        case .feedbackControl: "FEEDBACK_CONTROL"
        case .control1: "CONTROL1"
        case .control2: "CONTROL2"
        case .control3: "CONTROL3"
        case .control4: "CONTROL4"
        case .control5: "CONTROL5"
        case .openLoopLRAPeriod: "OL_LRA_PERIOD"
        case .supplyVoltage: "VBAT"
        case .lraPeriod: "LRA_PERIOD"
        }
    }

    public var description: String { "\(datasheetName) (\(hexByte(rawValue)))" }

    /// The bit fields of this register, most significant first; a register without named
    /// fields is one 8-bit field named after the register.
    public var fields: [DRV2605Field] {
        typealias F = DRV2605Field
        switch self {
        case .status: return [F.deviceID, F.diagnosticResult, F.feedbackStatus, F.overTemperature, F.overCurrent]
        case .mode: return [F.deviceReset, F.standby, F.modeSelect]
        case .librarySelect: return [F.highImpedance, F.library]
        case .waveformSequence1, .waveformSequence2, .waveformSequence3, .waveformSequence4,
             .waveformSequence5, .waveformSequence6, .waveformSequence7, .waveformSequence8:
            return [F.waitFlag, F.effectOrWait]
        case .go: return [F.goBit]
        case .feedbackControl: return [F.actuatorIsLRA, F.brakeFactor, F.loopGain, F.backEMFGain]
        case .control1: return [F.startupBoost, F.acCouple, F.driveTime]
        case .control2: return [F.bidirectionalInput, F.brakeStabilizer, F.sampleTime, F.blankingTime, F.currentDissipationTime]
        case .control3: return [F.noiseGateThreshold, F.ermOpenLoop, F.supplyCompensationDisabled, F.realtimeDataUnsigned, F.lraDriveMode, F.pwmInputAnalog, F.lraOpenLoop]
        case .control4: return [F.zeroCrossDetectTime, F.autoCalibrationTime, F.otpStatus, F.otpProgram]
        case .control5: return [F.autoOpenLoopCount, F.lraAutoOpenLoop, F.playbackInterval, F.blankingTimeHigh, F.currentDissipationTimeHigh]
        case .openLoopLRAPeriod: return [F.openLoopPeriod]
        default: return [DRV2605Field(datasheetName, bits: 0...7)]
        }
    }
}

/// A byte as the datasheet writes register values (`0x5A`), for dumps, errors and reports.
public func hexByte(_ value: UInt8) -> String {
    let hex = String(value, radix: 16, uppercase: true)
    return "0x" + (hex.count == 1 ? "0" + hex : hex)
}
