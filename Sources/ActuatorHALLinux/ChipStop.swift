import ActuatorHAL
import CDrivers

/// What stops one DRV2605-class chip when no Swift code can run — in the crash handler
/// (`EmergencyStop`) or in the crash guardian (`CrashGuardian`): the i2c-dev bus at the root of the
/// chip's path, the operations in order — each TCA9548A's channel select on the way, outermost
/// first, then `DRV2605.stopWrites` — and how they go on that adapter's wire.
public struct ChipStop: Sendable {
    /// The i2c-dev descriptor every step goes to.
    let busDescriptor: CInt
    /// The bus's device path, for errors.
    public let busName: String
    /// The chip's address on its (possibly multiplexed) bus.
    public let chipAddress: I2CAddress
    /// Whether the steps are SMBus commands (an adapter without plain I2C).
    public let smbusOnly: Bool
    /// What silences the chip, in order.
    public let operations: [StopOperation]

    /// The operations as the kernel is asked for them.
    public var steps: [StopStep] { operations.map { StopStep($0, smbusOnly: smbusOnly) } }

    /// The stop table of `chip` when it reads RTP_INPUT as `realtimeInput`. The chip's bus must be a
    /// `LinuxI2CBus` or a `TCA9548AChannel` leading to one (through further channels, if the
    /// switches are cascaded), and must stay open while the table is armed.
    /// - Throws: `ChipStopError.notOnLinuxBus` for any other bus, `.tooManyOperations` past what the
    ///   C table holds.
    public init(stopping chip: DRV2605, realtimeInput: DRV2605RealtimeInput) throws(ChipStopError) {
        let (root, selects) = try Self.route(to: chip.bus, chip: chip.address)
        let writes = DRV2605.stopWrites(realtimeInput: realtimeInput)
        try self.init(
            busDescriptor: root.descriptor, busName: root.name, chipAddress: chip.address, smbusOnly: root.usesSMBusRegisterAccess,
            operations: selects + writes.map { .writeRegister(chip: chip.address, register: $0.register.rawValue, value: $0.value) }
        )
    }

    /// A table on a raw descriptor (a test's).
    init(busDescriptor: CInt, busName: String, chipAddress: I2CAddress, smbusOnly: Bool, operations: [StopOperation]) throws(ChipStopError) {
        guard operations.count <= Int(HB_STOP_MAX_CHIP_STEPS) else {
            throw .tooManyOperations(chip: chipAddress, bus: busName, count: operations.count, limit: Int(HB_STOP_MAX_CHIP_STEPS))
        }
        self.busDescriptor = busDescriptor
        self.busName = busName
        self.chipAddress = chipAddress
        self.smbusOnly = smbusOnly
        self.operations = operations
    }

    /// The steps for CDrivers.
    var cSteps: [hb_stop_step] { steps.map { $0.cStep(bus: busDescriptor) } }

    /// The i2c-dev bus under `bus` and the channel selects that lead from it to the chip.
    private static func route(to bus: any I2CBus, chip: I2CAddress) throws(ChipStopError) -> (root: LinuxI2CBus, selects: [StopOperation]) {
        if let linux = bus as? LinuxI2CBus { return (linux, []) }
        if let channel = bus as? TCA9548AChannel {
            let (root, outer) = try route(to: channel.mux.parent, chip: chip)
            return (root, outer + [.selectChannel(mux: channel.mux.address, mask: channel.selectMask)])
        }
        throw .notOnLinuxBus(chip: chip, bus: bus.name)
    }
}

/// Why a chip's stop table could not be built.
public enum ChipStopError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The chip's bus leads to no i2c-dev descriptor (a simulated bus, say), which is all a crash
    /// handler or a guardian can write to.
    case notOnLinuxBus(chip: I2CAddress, bus: String)
    /// More operations than CDrivers' table holds per chip (multiplexers cascaded too deep).
    case tooManyOperations(chip: I2CAddress, bus: String, count: Int, limit: Int)

    public var description: String {
        switch self {
        case .notOnLinuxBus(let chip, let bus):
            return "the chip at \(chip) on \(bus) is not on an i2c-dev bus: nothing can stop it after a crash"
        case .tooManyOperations(let chip, let bus, let count, let limit):
            return "the chip at \(chip) on \(bus) needs \(count) operations to stop, more than the \(limit) a crash table holds"
        }
    }
}
