import ActuatorHAL
import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Turns SIGINT and SIGTERM into a safe stop: `stop` runs (give it the engine's
/// `HapticEngine.stopAtOnce`, which stops every player and leaves every actuator stopped and in
/// standby), then the process exits with 128 + the signal (130, 143), as a shell expects.
///
/// The signals are blocked and taken by a thread of the guard's own that waits in `sigwait`, not
/// by a C signal handler: stopping takes the engine's lock and talks to the bus, which a signal
/// handler must never do. (A dispatch signal source is not enough on Linux: an ignored signal is
/// discarded when a thread that does not block it receives it.) Threads inherit the signal mask,
/// so install the guard from the main thread before starting any other thread — before
/// `scheduler.startThread()` — e.g. at the top of a command's `run()`:
/// `let guard = TerminationGuard.install(stop: engine.stopAtOnce)`.
public final class TerminationGuard: @unchecked Sendable {
    /// The signals handled.
    public static let signals: [Int32] = [SIGINT, SIGTERM]

    private let stop: @Sendable () -> Void
    private let exit: @Sendable (Int32) -> Void
    private let lock = Lock()
    private var finished = false
    private var waitingThread: pthread_t?
    private var isWaiting = false
    private var previousMask = sigset_t()

    private init(stop: @escaping @Sendable () -> Void, exit: @escaping @Sendable (Int32) -> Void) {
        self.stop = stop
        self.exit = exit
    }

    /// Starts guarding: on SIGINT or SIGTERM `stop` runs, then `exit` ends the process with the
    /// status (tests pass their own).
    @discardableResult
    public static func install(stop: @escaping @Sendable () -> Void, exit: @escaping @Sendable (Int32) -> Void = { endProcess($0) }) -> TerminationGuard {
        let guardian = TerminationGuard(stop: stop, exit: exit)
        var set = signalSet
        pthread_sigmask(SIG_BLOCK, &set, &guardian.previousMask)
        let started = DispatchSemaphore(value: 0)
        do {
            _ = try PlatformThread.start(name: "hapticboard-signals") { [guardian] in
                guardian.lock.withLock {
                    guardian.waitingThread = pthread_self()
                    guardian.isWaiting = true
                }
                started.signal()
                guardian.waitForSignals()
            }
        } catch {
            // No thread to take the signals: leave them to their default action rather than blocked.
            var mask = guardian.previousMask
            pthread_sigmask(SIG_SETMASK, &mask, nil)
            return guardian
        }
        started.wait()
        return guardian
    }

    /// The C library's `exit`, named apart from the `exit` property.
    @usableFromInline
    static func endProcess(_ status: Int32) -> Never {
        #if canImport(Glibc)
        Glibc.exit(status)
        #else
        Musl.exit(status)
        #endif
    }

    private static var signalSet: sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signalNumber in signals { sigaddset(&set, signalNumber) }
        return set
    }

    /// The guard's waiting thread, for delivering a signal to it directly.
    var signalThread: pthread_t? { lock.withLock { waitingThread } }

    /// Stops guarding: the waiting thread ends and the calling thread's signal mask is restored.
    public func uninstall() {
        // Only a thread still in sigwait is woken: signalling an exited thread is undefined.
        let thread = lock.withLock { () -> pthread_t? in
            finished = true
            return isWaiting ? waitingThread : nil
        }
        if let thread { pthread_kill(thread, SIGTERM) }
        var mask = previousMask
        pthread_sigmask(SIG_SETMASK, &mask, nil)
    }

    private func waitForSignals() {
        var set = Self.signalSet
        while true {
            var received: Int32 = 0
            guard sigwait(&set, &received) == 0 else { continue }
            let done = lock.withLock { () -> Bool in
                isWaiting = false
                return finished
            }
            if !done { terminate(by: received) }
            return
        }
    }

    /// Stops and exits; a second Ctrl-C meanwhile stays blocked and changes nothing.
    private func terminate(by signalNumber: Int32) {
        lock.withLock { finished = true }
        stop()
        exit(128 + signalNumber)
    }
}
