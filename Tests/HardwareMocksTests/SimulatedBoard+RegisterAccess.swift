import ActuatorHAL
import HardwareMocks

/// Register access through the board's bus, as a driver would do it, so tests exercise the same
/// path (EN gating, startup delay, auto-increment, wire time) that real driver code does.
extension SimulatedBoard {
    func writeRegister(_ register: UInt8, _ value: UInt8) throws(I2CError) {
        try bus.write(address: Self.chipAddress, [register, value])
    }

    func readRegister(_ register: UInt8) throws(I2CError) -> UInt8 {
        try bus.writeRead(address: Self.chipAddress, [register], readCount: 1).first ?? 0
    }

    /// EN high, then the datasheet's 250 µs before the first access.
    func powerOn() throws {
        try enableLine.set(.high)
        clock.advance(by: .microseconds(250))
    }

    /// Powered, out of standby, in `mode` (MODE[2:0]).
    func powerOn(mode: UInt8) throws {
        try powerOn()
        try writeRegister(0x01, mode)
    }
}
