import ActuatorHAL
import CDrivers
import SystemPackage

/// Stops DRV2605-class chips when the process crashes.
///
/// Armed per chip with its `ChipStop` — a multiplexer's channel select first for a chip behind a
/// TCA9548A, then GO ← 0, RTP_INPUT ← the format's silence, MODE ← standby; `I2C_RDWR` or SMBus as
/// the adapter needs — it hands CDrivers' async-signal-safe handler the steps, so that on SIGSEGV,
/// SIGBUS, SIGILL, SIGFPE or SIGABRT the handler only issues them on the already-open bus before
/// the process dies. Orderly exits (stop, SIGINT, SIGTERM) go through the engine instead; deaths
/// no handler sees (SIGKILL, the OOM killer) are `CrashGuardian`'s, which also drives the enable
/// lines low once the process is gone.
public enum EmergencyStop {
    /// Arms the crash handler for `stop`'s chip. Its bus disarms itself when it is released.
    /// - Throws: `EmergencyStopError` with ENOSPC when `HB_STOP_MAX_CHIPS` chips are armed, EINVAL
    ///   for a closed bus.
    public static func arm(_ stop: ChipStop) throws(EmergencyStopError) {
        let steps = stop.cSteps
        let error = steps.withUnsafeBufferPointer { buffer in
            hb_emergency_arm(buffer.baseAddress, buffer.count)
        }
        guard error == 0 else { throw EmergencyStopError(bus: stop.busName, address: stop.chipAddress, errno: Errno(rawValue: error)) }
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
