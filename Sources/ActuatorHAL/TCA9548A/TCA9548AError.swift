/// A TCA9548A set up with values the chip cannot have. Bus faults during use are the parent bus's
/// `I2CError`s, passed through unchanged.
public enum TCA9548AError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The address is outside the chip's strapping range 0x70–0x77 (A2..A0 select the low three bits).
    case invalidAddress(I2CAddress)
    /// The channel index is outside 0–7.
    case invalidChannel(Int, mux: String)

    /// What went wrong and which values are allowed.
    public var description: String {
        switch self {
        case .invalidAddress(let address):
            return "TCA9548A address \(address) is not strappable: A2..A0 give 0x70-0x77 only"
        case .invalidChannel(let channel, let mux):
            return "\(mux) has channels 0-7; there is no channel \(channel)"
        }
    }
}
