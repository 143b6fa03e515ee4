/// How the scheduler treats a command that comes due late (see `LatePolicy`).
public enum CommandClass: Sendable, Hashable {
    /// A one-off effect (a click, a ROM trigger): worthless when late, so dropped and counted once it
    /// is later than `LatePolicy.transientTolerance`.
    case transient
    /// One value of a stream that sets state (amplitude, frequency): when several of the same stream
    /// are due at once, only the newest runs, so the actuator resyncs to the current value.
    case stream(StreamID)
    /// Power, mode and stop commands: always run, however late.
    case control
    /// The engine's own bookkeeping — status polls, the end of a ROM sequence, idle timers, the
    /// continuous-drive limit, a player's plan refill: always runs, however late, like `control`,
    /// but nothing felt or heard depends on its instant. So the timing thread sleeps right up to
    /// it instead of waking early to spin (`SpinWindow`), and its lateness, which is the kernel's
    /// wake-up, is left out of the scheduler's lateness figures.
    case housekeeping

    /// What the queue's order and the timing thread's aim need to know of a class.
    enum Kind: Equatable {
        /// `stream`: due values of one stream may go out together, and a value continuing it is
        /// aimed at less closely.
        case stream
        /// `housekeeping`: slept to, not spun for.
        case housekeeping
        /// `transient` and `control`.
        case other
    }
}

/// Names one stream of state-setting commands, e.g. "main/amplitude".
public struct StreamID: Hashable, Sendable, CustomStringConvertible {
    /// The stream's name.
    public let name: String

    /// A stream called `name`; equal names are the same stream.
    public init(_ name: String) {
        self.name = name
    }

    /// The name.
    public var description: String { name }
}
