import CDrivers
import SystemPackage

/// Stops DRV2605-class chips when the process crashes.
///
/// Armed per chip, it hands CDrivers' async-signal-safe handler the writes that silence the
/// chip — RTP_INPUT ← 0, GO ← 0, MODE ← standby — built here once, so that on SIGSEGV, SIGBUS,
/// SIGILL, SIGFPE or SIGABRT the handler only issues them on the already-open bus (one `I2C_RDWR`
/// each) before the process dies. Orderly exits (stop, SIGINT, SIGTERM) go through the engine
/// instead; this is the last line of defence for a crash, when no Swift code can run.
public enum EmergencyStop {
    /// The writes issued on a crash, in order: stop real-time drive, stop the sequencer, standby.
    public static let drv2605Writes: [(register: DRV2605Register, value: UInt8)] = [
        (.realtimeInput, 0),
        (.go, 0),
        (.mode, 0x40),
    ]

    /// Arms the crash handler for the DRV2605 at `address` on `bus`. The bus disarms itself when
    /// it is released.
    public static func arm(bus: LinuxI2CBus, address: I2CAddress) throws(EmergencyStopError) {
        try arm(descriptor: bus.descriptor, address: address, busName: bus.name)
    }

    /// Arms on a raw descriptor (the bus's, or a test's).
    static func arm(descriptor: CInt, address: I2CAddress, busName: String) throws(EmergencyStopError) {
        let pairs = drv2605Writes.flatMap { [$0.register.rawValue, $0.value] }
        let error = pairs.withUnsafeBufferPointer { buffer in
            hb_emergency_arm(descriptor, UInt16(address.rawValue), buffer.baseAddress, drv2605Writes.count)
        }
        guard error == 0 else { throw EmergencyStopError(bus: busName, address: address, errno: Errno(rawValue: error)) }
    }

    /// Forgets every chip armed on `bus`.
    public static func disarm(bus: LinuxI2CBus) {
        disarm(descriptor: bus.descriptor)
    }

    /// Forgets every chip armed on a raw descriptor.
    static func disarm(descriptor: CInt) {
        hb_emergency_disarm(descriptor)
    }

    /// Chips currently armed.
    public static var armedCount: Int { hb_emergency_armed_count() }
}

/// Arming the crash handler failed (ENOSPC: too many chips; EINVAL: a closed bus).
public struct EmergencyStopError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The bus's device path.
    public var bus: String
    /// The chip's address.
    public var address: I2CAddress
    /// What `hb_emergency_arm` returned.
    public var errno: Errno

    /// Which chip on which bus, and why.
    public var description: String {
        "cannot arm the crash stop for \(address) on \(bus): \(errno)"
    }
}
