/// A bit field of a DRV2605 register: a contiguous run of bits with the datasheet's name.
public struct DRV2605Field: Sendable, Hashable, CustomStringConvertible {
    /// The datasheet's name (`DEVICE_ID`, `SAMPLE_TIME`).
    public let name: String
    /// Lowest bit of the field.
    public let shift: UInt8
    /// Number of bits.
    public let width: UInt8

    /// A field spanning `bits`, lowest...highest (STATUS bits 7:5 are `5...7`; a single bit 3 is `3...3`).
    public init(_ name: String, bits: ClosedRange<UInt8>) {
        self.name = name
        self.shift = bits.lowerBound
        self.width = bits.upperBound - bits.lowerBound + 1
    }

    /// The field's bits in place within the register byte.
    public var mask: UInt8 { UInt8(truncatingIfNeeded: ((1 << Int(width)) - 1) << Int(shift)) }

    /// The largest value the field holds.
    public var maximum: UInt8 { UInt8(truncatingIfNeeded: (1 << Int(width)) - 1) }

    /// The field's value in `register`.
    public func value(in register: UInt8) -> UInt8 { (register & mask) >> shift }

    /// `value` placed in the field (extra high bits are dropped).
    public func encode(_ value: UInt8) -> UInt8 { (value << shift) & mask }

    /// Whether a one-bit field is set in `register`.
    public func isSet(in register: UInt8) -> Bool { value(in: register) != 0 }

    /// `register` with this field replaced by `value`.
    public func replacing(in register: UInt8, with value: UInt8) -> UInt8 { (register & ~mask) | encode(value) }

    public var description: String { name }
}

extension DRV2605Field {
    // STATUS (0x00)
    /// STATUS (0x00) bits 7:5.
    public static let deviceID = DRV2605Field("DEVICE_ID", bits: 5...7)
    /// STATUS (0x00) bit 3.
    public static let diagnosticResult = DRV2605Field("DIAG_RESULT", bits: 3...3)
    /// STATUS (0x00) bit 2.
    public static let feedbackStatus = DRV2605Field("FB_STS", bits: 2...2)
    /// STATUS (0x00) bit 1.
    public static let overTemperature = DRV2605Field("OVER_TEMP", bits: 1...1)
    /// STATUS (0x00) bit 0.
    public static let overCurrent = DRV2605Field("OC_DETECT", bits: 0...0)
    // MODE (0x01)
    /// MODE (0x01) bit 7.
    public static let deviceReset = DRV2605Field("DEV_RESET", bits: 7...7)
    /// MODE (0x01) bit 6.
    public static let standby = DRV2605Field("STANDBY", bits: 6...6)
    /// MODE (0x01) bits 2:0.
    public static let modeSelect = DRV2605Field("MODE", bits: 0...2)
    // LIBRARY_SEL (0x03)
    /// LIBRARY_SEL (0x03) bit 4.
    public static let highImpedance = DRV2605Field("HI_Z", bits: 4...4)
    /// LIBRARY_SEL (0x03) bits 2:0.
    public static let library = DRV2605Field("LIBRARY_SEL", bits: 0...2)
    // WAV_FRM_SEQ1..8 (0x04–0x0B)
    /// WAV_FRM_SEQ1..8 (0x04–0x0B) bit 7: the slot is a wait, not an effect.
    public static let waitFlag = DRV2605Field("WAIT", bits: 7...7)
    /// WAV_FRM_SEQ1..8 (0x04–0x0B) bits 6:0: effect id, or wait in 10 ms units.
    public static let effectOrWait = DRV2605Field("WAV_FRM_SEQ", bits: 0...6)
    // GO (0x0C)
    /// GO (0x0C) bit 0.
    public static let goBit = DRV2605Field("GO", bits: 0...0)
    // FEEDBACK_CONTROL (0x1A)
    /// FEEDBACK_CONTROL (0x1A) bit 7.
    public static let actuatorIsLRA = DRV2605Field("N_ERM_LRA", bits: 7...7)
    /// FEEDBACK_CONTROL (0x1A) bits 6:4.
    public static let brakeFactor = DRV2605Field("FB_BRAKE_FACTOR", bits: 4...6)
    /// FEEDBACK_CONTROL (0x1A) bits 3:2.
    public static let loopGain = DRV2605Field("LOOP_GAIN", bits: 2...3)
    /// FEEDBACK_CONTROL (0x1A) bits 1:0.
    public static let backEMFGain = DRV2605Field("BEMF_GAIN", bits: 0...1)
    // CONTROL1 (0x1B)
    /// CONTROL1 (0x1B) bit 7.
    public static let startupBoost = DRV2605Field("STARTUP_BOOST", bits: 7...7)
    /// CONTROL1 (0x1B) bit 5.
    public static let acCouple = DRV2605Field("AC_COUPLE", bits: 5...5)
    /// CONTROL1 (0x1B) bits 4:0.
    public static let driveTime = DRV2605Field("DRIVE_TIME", bits: 0...4)
    // CONTROL2 (0x1C)
    /// CONTROL2 (0x1C) bit 7.
    public static let bidirectionalInput = DRV2605Field("BIDIR_INPUT", bits: 7...7)
    /// CONTROL2 (0x1C) bit 6.
    public static let brakeStabilizer = DRV2605Field("BRAKE_STABILIZER", bits: 6...6)
    /// CONTROL2 (0x1C) bits 5:4.
    public static let sampleTime = DRV2605Field("SAMPLE_TIME", bits: 4...5)
    /// CONTROL2 (0x1C) bits 3:2.
    public static let blankingTime = DRV2605Field("BLANKING_TIME", bits: 2...3)
    /// CONTROL2 (0x1C) bits 1:0.
    public static let currentDissipationTime = DRV2605Field("IDISS_TIME", bits: 0...1)
    // CONTROL3 (0x1D)
    /// CONTROL3 (0x1D) bits 7:6.
    public static let noiseGateThreshold = DRV2605Field("NG_THRESH", bits: 6...7)
    /// CONTROL3 (0x1D) bit 5.
    public static let ermOpenLoop = DRV2605Field("ERM_OPEN_LOOP", bits: 5...5)
    /// CONTROL3 (0x1D) bit 4.
    public static let supplyCompensationDisabled = DRV2605Field("SUPPLY_COMP_DIS", bits: 4...4)
    /// CONTROL3 (0x1D) bit 3.
    public static let realtimeDataUnsigned = DRV2605Field("DATA_FORMAT_RTP", bits: 3...3)
    /// CONTROL3 (0x1D) bit 2.
    public static let lraDriveMode = DRV2605Field("LRA_DRIVE_MODE", bits: 2...2)
    /// CONTROL3 (0x1D) bit 1.
    public static let pwmInputAnalog = DRV2605Field("N_PWM_ANALOG", bits: 1...1)
    /// CONTROL3 (0x1D) bit 0.
    public static let lraOpenLoop = DRV2605Field("LRA_OPEN_LOOP", bits: 0...0)
    // CONTROL4 (0x1E). OTP_PROGRAM is one-time: this project never sets it.
    /// CONTROL4 (0x1E) bits 7:6.
    public static let zeroCrossDetectTime = DRV2605Field("ZC_DET_TIME", bits: 6...7)
    /// CONTROL4 (0x1E) bits 5:4.
    public static let autoCalibrationTime = DRV2605Field("AUTO_CAL_TIME", bits: 4...5)
    /// CONTROL4 (0x1E) bit 2.
    public static let otpStatus = DRV2605Field("OTP_STATUS", bits: 2...2)
    /// CONTROL4 (0x1E) bit 0.
    public static let otpProgram = DRV2605Field("OTP_PROGRAM", bits: 0...0)
    // CONTROL5 (0x1F)
    /// CONTROL5 (0x1F) bits 7:6.
    public static let autoOpenLoopCount = DRV2605Field("AUTO_OL_CNT", bits: 6...7)
    /// CONTROL5 (0x1F) bit 5.
    public static let lraAutoOpenLoop = DRV2605Field("LRA_AUTO_OPEN_LOOP", bits: 5...5)
    /// CONTROL5 (0x1F) bit 4.
    public static let playbackInterval = DRV2605Field("PLAYBACK_INTERVAL", bits: 4...4)
    /// CONTROL5 (0x1F) bits 3:2.
    public static let blankingTimeHigh = DRV2605Field("BLANKING_TIME_HI", bits: 2...3)
    /// CONTROL5 (0x1F) bits 1:0.
    public static let currentDissipationTimeHigh = DRV2605Field("IDISS_TIME_HI", bits: 0...1)
    // OL_LRA_PERIOD (0x20)
    /// OL_LRA_PERIOD (0x20) bits 6:0.
    public static let openLoopPeriod = DRV2605Field("OL_LRA_PERIOD", bits: 0...6)
}
