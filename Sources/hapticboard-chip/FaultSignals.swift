import Foundation
import HardwareMocks
import Synchronization

/// Chip faults the kernel lane asks for by signal, which i2c-stub cannot make on its own: the
/// stub is a register file, and these are the chip's own reactions (docs/faults.md).
///
/// - `SIGUSR1`: over-temperature (STATUS.OVER_TEMP, output stopped)
/// - `SIGUSR2`: over-current (STATUS.OC_DETECT, output stopped)
/// - `SIGHUP`: a power-on reset with EN still high (a supply dip): every register back to its
///   reset value
///
/// The handler only records the request (an atomic bit, async-signal-safe); the polling loop
/// applies it to the model between two rounds, on the one thread that touches the model.
enum FaultSignal: CaseIterable, CustomStringConvertible {
    case overTemperature, overCurrent, powerOnReset

    var signal: Int32 {
        switch self {
        case .overTemperature: SIGUSR1
        case .overCurrent: SIGUSR2
        case .powerOnReset: SIGHUP
        }
    }

    var bit: UInt8 { 1 << UInt8(Self.allCases.firstIndex(of: self)!) }

    var description: String {
        switch self {
        case .overTemperature: "over-temperature (SIGUSR1)"
        case .overCurrent: "over-current (SIGUSR2)"
        case .powerOnReset: "power-on reset with EN high (SIGHUP)"
        }
    }

    func inject(into model: DRV2605Model) {
        switch self {
        case .overTemperature: model.injectOverTemperature()
        case .overCurrent: model.injectOverCurrent()
        case .powerOnReset: model.injectPowerOnReset()
        }
    }

    /// Makes the three signals requests instead of ending the process.
    static func install() {
        for fault in allCases {
            Foundation.signal(fault.signal) { number in
                for fault in FaultSignal.allCases where fault.signal == number {
                    pendingFaultSignals.bitwiseOr(fault.bit, ordering: .relaxed)
                }
            }
        }
    }

    /// The faults asked for since the last call.
    static func takeRequested() -> [FaultSignal] {
        let bits = pendingFaultSignals.exchange(0, ordering: .relaxed)
        return allCases.filter { bits & $0.bit != 0 }
    }
}

private let pendingFaultSignals = Atomic<UInt8>(0)
