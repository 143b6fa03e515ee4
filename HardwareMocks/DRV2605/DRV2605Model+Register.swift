extension DRV2605Model {
    /// The register map as this model reads TI's datasheets (DRV2605L numbering, 0x00–0x22).
    ///
    /// Written here on purpose rather than shared with the driver in ActuatorHAL: the model is an
    /// independent reading of the datasheet, so a misread constant in the driver shows up as a
    /// failing test instead of being mirrored by the mock.
    enum Register: UInt8, CaseIterable {
        case status = 0x00
        case mode = 0x01
        case rtpInput = 0x02
        case librarySelection = 0x03
        case sequence1 = 0x04, sequence2, sequence3, sequence4, sequence5, sequence6, sequence7, sequence8
        case go = 0x0C
        case overdriveTimeOffset = 0x0D
        case sustainPositiveTimeOffset = 0x0E
        case sustainNegativeTimeOffset = 0x0F
        case brakeTimeOffset = 0x10
        case audioToVibeControl = 0x11
        case audioToVibeMinimumInput = 0x12
        case audioToVibeMaximumInput = 0x13
        case audioToVibeMinimumDrive = 0x14
        case audioToVibeMaximumDrive = 0x15
        case ratedVoltage = 0x16
        case overdriveClamp = 0x17
        case autoCalibrationCompensation = 0x18
        case autoCalibrationBackEMF = 0x19
        case feedbackControl = 0x1A
        case control1 = 0x1B
        case control2 = 0x1C
        case control3 = 0x1D
        case control4 = 0x1E
        case control5 = 0x1F
        case openLoopLRAPeriod = 0x20
        case supplyVoltage = 0x21
        case lraResonancePeriod = 0x22

        /// The eight waveform sequencer slots, in playback order.
        static let sequencerSlots: [Register] = [.sequence1, .sequence2, .sequence3, .sequence4,
                                                 .sequence5, .sequence6, .sequence7, .sequence8]

        /// Number of addresses in the register file (0x00 through 0x22).
        static let fileSize = 0x23
    }

    /// Bit fields the model acts on.
    enum Field {
        // STATUS (0x00)
        static let deviceIDShift: UInt8 = 5
        static let diagnosticResult: UInt8 = 1 << 3
        static let overTemperature: UInt8 = 1 << 1
        static let overCurrent: UInt8 = 1 << 0
        // MODE (0x01)
        static let deviceReset: UInt8 = 1 << 7
        static let standby: UInt8 = 1 << 6
        static let modeMask: UInt8 = 0x07
        // LIBRARY_SEL (0x03)
        static let librarySelectionMask: UInt8 = 0x07
        // WAV_FRM_SEQn
        static let wait: UInt8 = 1 << 7
        static let slotValueMask: UInt8 = 0x7F
        // GO (0x0C)
        static let go: UInt8 = 1 << 0
        // FEEDBACK_CONTROL (0x1A)
        static let lraSelected: UInt8 = 1 << 7
        static let backEMFGainMask: UInt8 = 0x03
        // CONTROL2 (0x1C)
        static let bidirectionalInput: UInt8 = 1 << 7
        static let sampleTimeShift: UInt8 = 4
        static let sampleTimeMask: UInt8 = 0x30
        // CONTROL3 (0x1D)
        static let ermOpenLoop: UInt8 = 1 << 5
        static let unsignedRTP: UInt8 = 1 << 3
        static let lraOpenLoop: UInt8 = 1 << 0
        // CONTROL4 (0x1E)
        static let autoCalibrationTimeShift: UInt8 = 4
        static let autoCalibrationTimeMask: UInt8 = 0x30
    }

    /// MODE[2:0] values the model implements.
    enum OperatingMode: UInt8 {
        case internalTrigger = 0
        case externalEdgeTrigger = 1
        case externalLevelTrigger = 2
        case pwmOrAnalog = 3
        case audioToVibe = 4
        case realTimePlayback = 5
        case diagnostics = 6
        case autoCalibration = 7
    }
}
