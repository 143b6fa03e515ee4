import ActuatorHALLinux
import Foundation

/// The signal that asked playback to stop, handed from `TerminationGuard`'s signal thread (which
/// has already stopped the engine and put the actuators in standby) to the command's thread, which
/// then prints the summary and exits with 128 + the signal.
final class StopRequest: @unchecked Sendable {
    private let lock = NSLock()
    private var signal: Int32?

    /// The signal received, if any.
    var received: Int32? { lock.withLock { signal } }

    /// Records the first signal; later ones change nothing.
    func record(signal number: Int32) {
        lock.withLock { if signal == nil { signal = number } }
    }

    /// `SIGINT`, `SIGTERM`, or the number.
    static func name(of number: Int32) -> String {
        switch number {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        default: "signal \(number)"
        }
    }
}
