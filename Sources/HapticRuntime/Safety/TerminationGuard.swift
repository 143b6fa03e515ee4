import Dispatch
import Foundation

/// Turns SIGINT and SIGTERM into a safe stop: the engine stops every player and leaves every
/// actuator stopped and in standby, then the process exits with 128 + the signal (130, 143), as a
/// shell expects.
///
/// The signals are received by dispatch signal sources on a queue of their own, not in a C signal
/// handler: stopping the engine takes its lock and talks to the bus, which a signal handler must
/// never do. Install it once the engine exists, e.g. at the top of a command's `run()`:
/// `let guard = TerminationGuard.install(engine: engine)`.
public final class TerminationGuard: @unchecked Sendable {
    /// The signals handled.
    public static let signals: [Int32] = [SIGINT, SIGTERM]

    private let engine: HapticEngine
    private let exit: @Sendable (Int32) -> Void
    private let queue = DispatchQueue(label: "hapticboard-termination")
    private var sources: [any DispatchSourceSignal] = []
    private let lock = NSLock()
    private var stopping = false

    private init(engine: HapticEngine, exit: @escaping @Sendable (Int32) -> Void) {
        self.engine = engine
        self.exit = exit
    }

    /// Starts guarding `engine`. `exit` ends the process with the status (tests pass their own).
    /// The default disposition of each signal is replaced by "ignore" so that only the dispatch
    /// source sees it; `uninstall()` restores the defaults.
    @discardableResult
    public static func install(engine: HapticEngine, exit: @escaping @Sendable (Int32) -> Void = { Foundation.exit($0) }) -> TerminationGuard {
        let guardian = TerminationGuard(engine: engine, exit: exit)
        for signalNumber in signals {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: guardian.queue)
            source.setEventHandler { [weak guardian] in
                guardian?.terminate(by: signalNumber)
            }
            source.resume()
            guardian.sources.append(source)
        }
        return guardian
    }

    /// Stops guarding and gives the signals their default disposition back.
    public func uninstall() {
        for source in sources { source.cancel() }
        sources = []
        for signalNumber in Self.signals { signal(signalNumber, SIG_DFL) }
    }

    /// Stops the engine (once, even if the user presses Ctrl-C again meanwhile) and exits.
    private func terminate(by signalNumber: Int32) {
        let first = lock.withLock { () -> Bool in
            defer { stopping = true }
            return !stopping
        }
        guard first else { return }
        engine.scheduler.cancelAll()
        engine.stop()
        exit(128 + signalNumber)
    }
}
