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
