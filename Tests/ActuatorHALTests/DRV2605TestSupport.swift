import ActuatorHAL
import HardwareMocks

/// The `sim` board's actuator: a 175 Hz, 2.0 V rms LRA with a 2.8 V peak clamp, closed loop.
let simLRA = DRV2605Configuration(ratings: DRV2605Ratings(kind: .lra, loop: .closed, ratedVoltage: 2.0, overdriveVoltage: 2.8, resonantFrequency: 175))

/// A 3.0 V average ERM with a 3.6 V peak clamp, closed loop.
let ermClosedLoop = DRV2605Configuration(ratings: DRV2605Ratings(kind: .erm, loop: .closed, ratedVoltage: 3.0, overdriveVoltage: 3.6))

extension SimulatedBoard {
    /// A driver for the board's chip through its EN line.
    func makeDriver() -> DRV2605 {
        DRV2605(bus: bus, enableLine: enableLine, clock: clock)
    }
}

extension SimulatedI2CBus {
    /// The log as register accesses: `MODE←0x00` for a write, `WAV_FRM_SEQ1←0x01,0x00` for a
    /// write of consecutive registers, `STATUS?` for a read, with `!` for a failed transfer;
    /// anything else verbatim.
    var registerTrace: [String] {
        log.map { entry in
            let failed = entry.error == nil ? "" : "!"
            let operations = entry.operations
            if operations.count == 1, case .write(let bytes) = operations[0], bytes.count >= 2 {
                return name(of: bytes[0]) + "←" + bytes.dropFirst().map(hex).joined(separator: ",") + failed
            }
            if operations.count == 2, case .write(let bytes) = operations[0], bytes.count == 1, operations[1] == .read(count: 1) {
                return name(of: bytes[0]) + "?" + failed
            }
            return "\(operations)" + failed
        }
    }

    private func name(of address: UInt8) -> String {
        DRV2605Register(rawValue: address)?.datasheetName ?? hex(address)
    }

    private func hex(_ value: UInt8) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "0x" + (digits.count == 1 ? "0" + digits : digits)
    }
}

/// A bus in front of a simulated one whose next transfer reaches the device and *then* fails, as
/// when a chip latches a byte and the error comes from the STOP condition: the case that makes
/// blindly retrying GO unsafe.
final class LateFailureBus: I2CBus {
    let inner: SimulatedI2CBus
    var failNextTransferAfterDelivery: I2CError?

    init(_ inner: SimulatedI2CBus) { self.inner = inner }

    var speedHz: Int { inner.speedHz }
    var name: String { inner.name }

    func transaction(address: I2CAddress, _ operations: [I2COperation]) throws(I2CError) -> [[UInt8]] {
        let result = try inner.transaction(address: address, operations)
        if let error = failNextTransferAfterDelivery {
            failNextTransferAfterDelivery = nil
            throw error
        }
        return result
    }
}

/// A bus in front of a simulated one that changes what register reads return, for chip behaviour
/// the model does not produce (a DEV_RESET that never clears, a GO stuck high in diagnostics).
final class ReadAlteringBus: I2CBus {
    let inner: SimulatedI2CBus
    let alter: (DRV2605Register, UInt8) -> UInt8

    init(_ inner: SimulatedI2CBus, alter: @escaping (DRV2605Register, UInt8) -> UInt8) {
        self.inner = inner
        self.alter = alter
    }

    var speedHz: Int { inner.speedHz }
    var name: String { inner.name }

    func transaction(address: I2CAddress, _ operations: [I2COperation]) throws(I2CError) -> [[UInt8]] {
        let result = try inner.transaction(address: address, operations)
        guard operations.count == 2, case .write(let bytes) = operations[0], bytes.count == 1,
              let register = DRV2605Register(rawValue: bytes[0]), let value = result.first?.first else { return result }
        return [[alter(register, value)]]
    }
}
