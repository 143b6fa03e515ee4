import Dispatch
import Foundation

/// SIGINT and SIGTERM turned into a flag the player polls, so a signal stops playback between two
/// commands — never in the middle of a bus transfer — and the actuators can be put in standby
/// before the process exits.
final class TerminationSignals: @unchecked Sendable {
    private let lock = NSLock()
    private var first: Int32?
    private var sources: [any DispatchSourceSignal] = []

    /// Takes over SIGINT and SIGTERM for the life of this object.
    init(signals: [Int32] = [SIGINT, SIGTERM]) {
        for number in signals {
            // The default action would end the process before cleanup; the source sees the signal instead.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in self?.record(number) }
            source.resume()
            sources.append(source)
        }
    }

    deinit {
        for source in sources { source.cancel() }
    }

    /// The first signal received, if any.
    var received: Int32? {
        lock.lock()
        defer { lock.unlock() }
        return first
    }

    private func record(_ number: Int32) {
        lock.lock()
        if first == nil { first = number }
        lock.unlock()
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
