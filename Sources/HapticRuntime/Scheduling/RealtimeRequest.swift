/// Whether the timing thread asks the kernel for real-time scheduling.
public enum RealtimeRequest: Sendable, Hashable {
    /// An ordinary thread (tests, or a process that must not hold real-time priority).
    case none
    /// SCHED_FIFO, 1 ns timer slack and locked memory where the process is allowed them; otherwise
    /// one warning naming how to allow them, and the thread runs as an ordinary one.
    case whenPermitted
}
