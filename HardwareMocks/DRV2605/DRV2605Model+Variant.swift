import ActuatorHAL

extension DRV2605Model {
    /// The members of the family, told apart by STATUS.DEVICE_ID (bits 7:5).
    public enum Variant: Sendable, CaseIterable {
        /// ROM effect libraries, no RAM; DEVICE_ID 3.
        case drv2605
        /// RAM waveforms, no ROM libraries; DEVICE_ID 4.
        case drv2604
        /// Low-voltage DRV2604; DEVICE_ID 6.
        case drv2604L
        /// Low-voltage DRV2605 with ERM library F and open-loop LRA; DEVICE_ID 7.
        case drv2605L

        /// STATUS.DEVICE_ID: 3 = DRV2605, 4 = DRV2604, 6 = DRV2604L, 7 = DRV2605L (TI-DS STATUS register).
        public var deviceID: UInt8 {
            switch self {
            case .drv2605: return 3
            case .drv2604: return 4
            case .drv2604L: return 6
            case .drv2605L: return 7
            }
        }

        /// The "L" parts add CONTROL5 (0x1F) and OL_LRA_PERIOD (0x20); on the older parts those
        /// addresses are reserved and read 0x00 (a DRV2605 dump in TI E2E thread 417442 shows both as 0x00).
        var hasLRAOpenLoopRegisters: Bool {
            self == .drv2604L || self == .drv2605L
        }

        /// The register file right after power-up or DEV_RESET.
        ///
        /// Sources: DRV2605 register map (TI SLOS825E, "Register Map": STATUS 0x60, MODE 0x40,
        /// LIBRARY_SEL 0x00, WAV_FRM_SEQ1 0x01, audio-to-vibe 0x05/0x19/0xFF/0x19/0xFF, RATED_VOLTAGE 0x3F,
        /// OD_CLAMP 0x89, A_CAL_COMP 0x0D, A_CAL_BEMF 0x6D, FEEDBACK_CONTROL 0x36). DRV2605L
        /// (TI SLOS854): RATED_VOLTAGE 0x3E, OD_CLAMP 0x8C, CONTROL1 0x93, CONTROL2 0xF5, CONTROL3 0xA0,
        /// CONTROL4 0x20, CONTROL5 0x80, OL_LRA_PERIOD 0x33; a DRV2605L dump in TI E2E thread 1174173
        /// shows the same CONTROL1/2/4/5 and OL_LRA_PERIOD values. LIBRARY_SEL is ambiguous: the
        /// DRV2605 register map table gives 0x00 (empty library) while its field description of
        /// register 0x03 gives LIBRARY_SEL default 1; the model follows the map table (0x00) for every
        /// variant, so a driver that forgets to select a library plays silence. The DRV2604 parts are
        /// assumed to share their sibling DRV2605 part's values (DRV2604 ↔ DRV2605, DRV2604L ↔ DRV2605L);
        /// their RAM waveform registers (0xFD–0xFF) are not modelled.
        var resetValues: [UInt8] {
            var values = [UInt8](repeating: 0, count: Register.fileSize)
            let isL = hasLRAOpenLoopRegisters
            values[Register.status.index] = deviceID << Field.deviceIDShift
            values[Register.mode.index] = Field.standby
            values[Register.sequence1.index] = 0x01
            values[Register.audioToVibeControl.index] = 0x05
            values[Register.audioToVibeMinimumInput.index] = 0x19
            values[Register.audioToVibeMaximumInput.index] = 0xFF
            values[Register.audioToVibeMinimumDrive.index] = 0x19
            values[Register.audioToVibeMaximumDrive.index] = 0xFF
            values[Register.ratedVoltage.index] = isL ? 0x3E : 0x3F
            values[Register.overdriveClamp.index] = isL ? 0x8C : 0x89
            values[Register.autoCalibrationCompensation.index] = 0x0D
            values[Register.autoCalibrationBackEMF.index] = 0x6D
            values[Register.feedbackControl.index] = 0x36
            values[Register.control1.index] = 0x93
            values[Register.control2.index] = 0xF5
            values[Register.control3.index] = 0xA0
            values[Register.control4.index] = 0x20
            values[Register.control5.index] = isL ? 0x80 : 0x00
            values[Register.openLoopLRAPeriod.index] = isL ? 0x33 : 0x00
            return values
        }

        /// Whether the part has the licensed ROM effect libraries (DRV2605, DRV2605L). The DRV2604
        /// parts play waveforms from RAM instead (TI-DS STATUS: "contains RAM, does not contain
        /// licensed ROM library"), which the model does not hold, so their sequencer plays silence.
        var hasROMLibrary: Bool {
            self == .drv2605 || self == .drv2605L
        }

        /// Whether `library` (LIBRARY_SEL bits 2:0) holds effects on this part: 0 is the empty
        /// library and 7 (ERM library F) exists on the DRV2605L only.
        func playsEffects(fromLibrary library: UInt8) -> Bool {
            guard hasROMLibrary, library != 0 else { return false }
            return library != 7 || self == .drv2605L
        }

        /// Bits the host may change with a write; the rest keep their value (read-only or reserved).
        ///
        /// STATUS, VBAT and LRA_PERIOD are read-only; MODE bits 5:3, LIBRARY_SEL bits 7:5 and 3,
        /// GO bits 7:1 and the audio-to-vibe control's bits 7:4 are reserved. CONTROL4 keeps only
        /// ZC_DET_TIME and AUTO_CAL_TIME writable: OTP_STATUS is read-only and the model refuses
        /// OTP_PROGRAM, which on silicon burns one-time memory.
        func writableMask(_ register: Register) -> UInt8 {
            switch register {
            case .status, .supplyVoltage, .lraResonancePeriod: return 0x00
            case .mode: return Field.deviceReset | Field.standby | Field.modeMask
            case .librarySelection: return 0x17
            case .go: return Field.go
            case .audioToVibeControl: return 0x0F
            case .control4: return 0xF0
            case .control5: return hasLRAOpenLoopRegisters ? 0xFF : 0x00
            case .openLoopLRAPeriod: return hasLRAOpenLoopRegisters ? 0x7F : 0x00
            default: return 0xFF
            }
        }
    }
}

extension DRV2605Model.Variant {
    /// The simulated part for a driver-side variant name (what a board file's `compatible` names).
    public init(_ variant: DRV2605Variant) {
        switch variant {
        case .drv2605: self = .drv2605
        case .drv2604: self = .drv2604
        case .drv2604L: self = .drv2604L
        case .drv2605L: self = .drv2605L
        }
    }
}

extension DRV2605Model.Register {
    /// Position in the register file array.
    var index: Int { Int(rawValue) }
}
