import ActuatorHAL

/// Several devices that answer the same address on one electrical bus, as happens when a switch
/// connects two channels that each hold a chip at that address.
///
/// I2C is open-drain, so this is what the wire does: each device that acknowledges its address
/// receives every written byte, and a read returns the bitwise AND of what they drive (a 0 from
/// any of them pulls SDA low). A device that did not acknowledge ignores the rest of the transfer.
public final class SharedAddressDevice: SimulatedI2CDevice {
    /// The devices that acknowledged, in attachment order.
    public let devices: [any SimulatedI2CDevice]

    private init(devices: [any SimulatedI2CDevice]) {
        self.devices = devices
    }

    /// The device the master talks to when `candidates` are all wired to one address: the single
    /// acknowledging device itself, several of them merged, or (when none acknowledges) one that
    /// will NACK; `nil` when there are no candidates.
    public static func combining(_ candidates: [any SimulatedI2CDevice]) -> (any SimulatedI2CDevice)? {
        let acknowledging = candidates.filter(\.acknowledges)
        guard acknowledging.count > 1 else { return acknowledging.first ?? candidates.first }
        return SharedAddressDevice(devices: acknowledging)
    }

    /// Always: only acknowledging devices are merged.
    public var acknowledges: Bool { true }

    /// Delivers the bytes to every device, then reports the first error any of them raised.
    public func receive(_ bytes: [UInt8]) throws(I2CError) {
        var firstError: I2CError?
        for device in devices {
            do throws(I2CError) {
                try device.receive(bytes)
            } catch {
                // The others still saw the bytes on the wire, so deliver to all before reporting.
                if firstError == nil { firstError = error }
            }
        }
        if let firstError { throw firstError }
    }

    /// The bitwise AND of what every device drives.
    public func transmit(count: Int) throws(I2CError) -> [UInt8] {
        // A released SDA reads high, so 0xFF is the identity for the wired-AND.
        var wire = [UInt8](repeating: 0xFF, count: count)
        for device in devices {
            let driven = try device.transmit(count: count)
            for index in 0..<min(count, driven.count) {
                wire[index] &= driven[index]
            }
        }
        return wire
    }
}
