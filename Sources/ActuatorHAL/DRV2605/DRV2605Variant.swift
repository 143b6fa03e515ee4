/// Which member of the DRV2605 family answered, from STATUS.DEVICE_ID (bits 7:5).
public enum DRV2605Variant: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    case drv2605 = "DRV2605"
    case drv2604 = "DRV2604"
    case drv2604L = "DRV2604L"
    case drv2605L = "DRV2605L"

    /// What a family member has; every difference between the parts the driver and the simulated
    /// chip rely on is in this one table (`features`).
    public struct Features: Sendable, Hashable {
        /// STATUS.DEVICE_ID.
        public var deviceID: UInt8
        /// The licensed ROM effect libraries (LIBRARY_SEL, ROM effect ids 1–123).
        public var romLibrary: Bool
        /// ERM library F (LIBRARY_SEL 7), the "L" ROM part only.
        public var ermLibraryF: Bool
        /// Waveform RAM for user effects (registers 0xFD–0xFF) instead of ROM.
        public var waveformRAM: Bool
        /// CONTROL5 (0x1F) and OL_LRA_PERIOD (0x20): open-loop LRA drive at a set period.
        public var openLoopPeriodRegister: Bool
        /// RATED_VOLTAGE and OD_CLAMP after power-up or DEV_RESET (each part's register map).
        public var resetRatedVoltage: UInt8
        public var resetOverdriveClamp: UInt8
        /// Answers the broadcast address 0x58 as well as 0x5A, so one write reaches every such
        /// chip on the wire (TI E2E FAQ 1065455 documents it for the DRV2605L).
        public var broadcastAddress: Bool
    }

    /// The family table, from each part's datasheet (STATUS register, register map):
    ///
    /// | part | DEVICE_ID | ROM libraries | library F | waveform RAM | CONTROL5, OL_LRA_PERIOD | RATED_VOLTAGE, OD_CLAMP reset | broadcast 0x58 |
    /// |---|---|---|---|---|---|---|---|
    /// | DRV2605 (SLOS825) | 3 | A–E, LRA | no | no | no | 0x3F, 0x89 | no |
    /// | DRV2604 (SLOS824) | 4 | no | no | yes | no | 0x3F, 0x89 | no |
    /// | DRV2604L (SLOS866) | 6 | no | no | yes | yes | 0x3E, 0x8C | no (not documented) |
    /// | DRV2605L (SLOS854) | 7 | A–F, LRA | yes | no | yes | 0x3E, 0x8C | yes |
    public var features: Features {
        switch self {
        case .drv2605: Features(deviceID: 3, romLibrary: true, ermLibraryF: false, waveformRAM: false, openLoopPeriodRegister: false, resetRatedVoltage: 0x3F, resetOverdriveClamp: 0x89, broadcastAddress: false)
        case .drv2604: Features(deviceID: 4, romLibrary: false, ermLibraryF: false, waveformRAM: true, openLoopPeriodRegister: false, resetRatedVoltage: 0x3F, resetOverdriveClamp: 0x89, broadcastAddress: false)
        case .drv2604L: Features(deviceID: 6, romLibrary: false, ermLibraryF: false, waveformRAM: true, openLoopPeriodRegister: true, resetRatedVoltage: 0x3E, resetOverdriveClamp: 0x8C, broadcastAddress: false)
        case .drv2605L: Features(deviceID: 7, romLibrary: true, ermLibraryF: true, waveformRAM: false, openLoopPeriodRegister: true, resetRatedVoltage: 0x3E, resetOverdriveClamp: 0x8C, broadcastAddress: true)
        }
    }

    /// The variant with this DEVICE_ID, or `nil` for an id the family does not use.
    public init?(deviceID: UInt8) {
        guard let variant = Self.allCases.first(where: { $0.deviceID == deviceID }) else { return nil }
        self = variant
    }

    /// The STATUS.DEVICE_ID value the chip reports.
    public var deviceID: UInt8 { features.deviceID }

    /// Whether the chip has the licensed ROM effect libraries. The DRV2604 and DRV2604L have a
    /// RAM for user waveforms instead, so LIBRARY_SEL and ROM effect ids mean nothing there.
    public var hasROMLibrary: Bool { features.romLibrary }

    /// Whether the chip has OL_LRA_PERIOD (0x20) and CONTROL5 (0x1F): the "L" parts only.
    public var hasOpenLoopPeriodRegister: Bool { features.openLoopPeriodRegister }

    /// Whether `library` exists on this chip (ERM library F is DRV2605L only).
    public func supports(_ library: ROMLibrary) -> Bool {
        if library == .empty { return true }
        guard features.romLibrary else { return false }
        return library != .ermF || features.ermLibraryF
    }

    public var description: String { rawValue }
}
