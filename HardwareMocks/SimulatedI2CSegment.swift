import ActuatorHAL

/// A stretch of simulated I2C wire with devices on it but no master of its own, such as one
/// downstream channel of a TCA9548A: it is reachable only through whatever connects it upstream.
public final class SimulatedI2CSegment: SimulatedI2CDownstream {
    /// For reports: `"mux@0x70/ch3"`.
    public let name: String
    private var attached: [I2CAddress: any SimulatedI2CDevice] = [:]
    private var downstreams: [any SimulatedI2CDownstream] = []

    /// An empty segment.
    public init(name: String) {
        self.name = name
    }

    /// Places `device` at `address` on this segment.
    public func attach(_ device: any SimulatedI2CDevice, at address: I2CAddress) {
        attached[address] = device
    }

    /// Removes the device at `address` (it stops acknowledging, as if unplugged).
    public func detach(at address: I2CAddress) {
        attached[address] = nil
    }

    /// Joins a further downstream (a cascaded switch) to this segment's wires.
    public func attachDownstream(_ downstream: any SimulatedI2CDownstream) {
        downstreams.append(downstream)
    }

    /// The device attached at `address` and those reachable through further downstreams.
    public func devices(at address: I2CAddress) -> [any SimulatedI2CDevice] {
        let local = attached[address].map { [$0] } ?? []
        return local + downstreams.devices(at: address)
    }
}
