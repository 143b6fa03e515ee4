/// Which member of the DRV2605 family answered, from STATUS.DEVICE_ID (bits 7:5).
public enum DRV2605Variant: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    case drv2605 = "DRV2605"
    case drv2604 = "DRV2604"
    case drv2604L = "DRV2604L"
    case drv2605L = "DRV2605L"

    /// The variant with this DEVICE_ID, or `nil` for an id the family does not use.
    public init?(deviceID: UInt8) {
        guard let variant = Self.allCases.first(where: { $0.deviceID == deviceID }) else { return nil }
        self = variant
    }

    /// The STATUS.DEVICE_ID value the chip reports.
    public var deviceID: UInt8 {
        switch self {
        case .drv2605: 3
        case .drv2604: 4
        case .drv2604L: 6
        case .drv2605L: 7
        }
    }

    /// Whether the chip has the licensed ROM effect libraries. The DRV2604 and DRV2604L have a
    /// RAM for user waveforms instead, so LIBRARY_SEL and ROM effect ids mean nothing there.
    public var hasROMLibrary: Bool { self == .drv2605 || self == .drv2605L }

    /// Whether the chip has OL_LRA_PERIOD (0x20) and CONTROL5 (0x1F): the "L" parts only.
    public var hasOpenLoopPeriodRegister: Bool { self == .drv2604L || self == .drv2605L }

    /// Whether `library` exists on this chip (ERM library F is DRV2605L only).
    public func supports(_ library: ROMLibrary) -> Bool {
        if library == .empty { return true }
        guard hasROMLibrary else { return false }
        return library != .ermF || self == .drv2605L
    }

    public var description: String { rawValue }
}
