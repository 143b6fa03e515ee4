import ActuatorHAL

/// Something that connects more devices to a simulated bus than the bus's own address table: a
/// switch such as the TCA9548A joins its selected channels' wires to the upstream bus.
///
/// `SimulatedI2CBus` asks every attached downstream for the devices at an address, at the start of
/// each transaction, so the answer follows the switch's state at that moment.
public protocol SimulatedI2CDownstream: AnyObject {
    /// The devices wired to `address` through this downstream right now (none when disconnected).
    func devices(at address: I2CAddress) -> [any SimulatedI2CDevice]
}

extension Sequence where Element == any SimulatedI2CDownstream {
    /// Everything wired to `address` through any of these downstreams.
    func devices(at address: I2CAddress) -> [any SimulatedI2CDevice] {
        flatMap { $0.devices(at: address) }
    }
}
