/// A DRV2605 ROM waveform library (LIBRARY_SEL bits 2:0). Effect ids 1–123 are the same in every
/// library; the libraries differ in the actuator they are tuned for.
public enum ROMLibrary: UInt8, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case empty = 0
    case ermA = 1
    case ermB = 2
    case ermC = 3
    case ermD = 4
    case ermE = 5
    case lra = 6
    /// DRV2605L only.
    case ermF = 7

    /// The valid effect ids of a non-empty library.
    public static let effectIDs: ClosedRange<UInt8> = 1...123

    /// The datasheet's name: "A"…"F", "LRA", or "empty".
    public var description: String {
        switch self {
        case .empty: "empty"
        case .ermA: "A"
        case .ermB: "B"
        case .ermC: "C"
        case .ermD: "D"
        case .ermE: "E"
        case .lra: "LRA"
        case .ermF: "F"
        }
    }
}
