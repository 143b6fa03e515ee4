import ActuatorHAL
import SystemPackage

/// Why the crash guardian could not be started or ended in good order.
public enum CrashGuardianError: Error, Sendable, Hashable, CustomStringConvertible {
    /// More chips than the guardian's table holds.
    case tooManyChips(Int, limit: Int)
    /// More enable lines than the guardian's table holds.
    case tooManyLines(Int, limit: Int)
    /// Starting it failed: opening a GPIO chip (EACCES: add the user to the `gpio` group), the
    /// socket pair or `fork` (EAGAIN: the process limit).
    case start(Errno)
    /// It was gone before the disarm reached it (killed, or it had already stopped the chips);
    /// `status` is how it ended.
    case notRunning(status: Int32)
    /// It did not exit within the time allowed, so it was killed.
    case didNotExit(after: Duration)
    /// It exited otherwise than disarmed: `status` is its exit status or 128 + a signal.
    case unexpectedExit(status: Int32)
    /// Ending it failed in the kernel (waitpid, poll).
    case end(Errno)
    /// It was ended once already.
    case alreadyEnded

    public var description: String {
        switch self {
        case .tooManyChips(let count, let limit):
            return "the crash guardian can stop at most \(limit) chips, not \(count)"
        case .tooManyLines(let count, let limit):
            return "the crash guardian can hold at most \(limit) enable lines, not \(count)"
        case .start(let errno):
            return "cannot start the crash guardian: \(errno) (errno \(errno.rawValue))"
        case .notRunning(let status):
            return "the crash guardian was gone before it was disarmed (exit status \(status))"
        case .didNotExit(let timeout):
            return "the crash guardian did not exit within \(timeout) of being disarmed and was killed"
        case .unexpectedExit(let status):
            return "the crash guardian exited with status \(status) instead of disarmed"
        case .end(let errno):
            return "cannot end the crash guardian: \(errno) (errno \(errno.rawValue))"
        case .alreadyEnded:
            return "the crash guardian was ended already"
        }
    }
}
