import ActuatorHAL
import CDrivers
import SystemPackage

/// An interruptible CLOCK_MONOTONIC sleep: a timerfd armed with `TFD_TIMER_ABSTIME` (absolute, so
/// nothing drifts) polled together with an eventfd that `interrupt()` writes to. This is how
/// libdispatch's epoll backend and SwiftNIO sleep too.
public final class TimerFDSleeper: InterruptibleSleeper, Sendable {
    private let timerDescriptor: CInt
    private let wakeDescriptor: CInt

    /// Opens the timerfd and the eventfd.
    /// - Throws: `Errno` (EMFILE/ENFILE when out of descriptors).
    public init() throws(Errno) {
        var timer: CInt = -1
        var wake: CInt = -1
        let error = hb_deadline_sleeper_open(&timer, &wake)
        guard error == 0 else { throw Errno(rawValue: error) }
        timerDescriptor = timer
        wakeDescriptor = wake
    }

    deinit {
        hb_deadline_sleeper_close(timerDescriptor, wakeDescriptor)
    }

    /// Blocks until CLOCK_MONOTONIC reaches `deadline` or until `interrupt()`.
    /// - Returns: `true` when an interrupt ended the sleep.
    /// - Throws: `Errno` if the kernel refuses to arm the timer or to poll.
    @discardableResult
    public func sleep(until deadline: MonotonicInstant) throws -> Bool {
        var interrupted: CInt = 0
        let error = hb_deadline_sleeper_wait(timerDescriptor, wakeDescriptor, deadline.nanoseconds, &interrupted)
        guard error == 0 else { throw Errno(rawValue: error) }
        return interrupted != 0
    }

    /// Ends the current or next sleep.
    public func interrupt() {
        // Writing to an open eventfd can only fail by saturation, which already means "wake pending".
        _ = hb_deadline_sleeper_wake(wakeDescriptor)
    }
}
