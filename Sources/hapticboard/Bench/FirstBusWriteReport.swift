import ActuatorHAL
import ActuatorHALLinux
import Foundation
import HardwareMocks

/// The child's side of the bench's cold-start figure: with `environmentKey` set, `play` on a
/// simulated board prints the CLOCK_MONOTONIC instant of the first register write that reaches
/// the simulated chip, once, on standard error (`ColdPlay` reads it).
enum FirstBusWriteReport {
    static let environmentKey = "HAPTICBOARD_BENCH_REPORT_FIRST_WRITE"
    /// The line's prefix; the instant in nanoseconds follows.
    static let marker = "hapticboard-bench: first bus write at ns "

    /// Watches `bus` when the environment asks for it.
    static func installIfRequested(on bus: SimulatedI2CBus) {
        guard ProcessInfo.processInfo.environment[environmentKey] != nil else { return }
        let clock = SystemMonotonicClock()
        bus.transactionObserver = { [weak bus] entry in
            let isWrite = entry.operations.allSatisfy { if case .write = $0 { true } else { false } }
            guard isWrite, entry.error == nil else { return }
            FileHandle.standardError.write(Data("\(marker)\(clock.now.nanoseconds)\n".utf8))
            bus?.transactionObserver = nil
        }
    }
}
