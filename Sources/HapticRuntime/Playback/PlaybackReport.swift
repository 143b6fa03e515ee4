import ActuatorHAL

/// What a `PlaybackSession` did: what it played, the scheduler's counters and lateness, the
/// power transitions against their budgets, and the sound's onsets.
public struct PlaybackReport: Sendable, Codable {
    /// Later than this counts as late.
    public static let lateTolerance = Duration.milliseconds(1)

    /// The actuators played on.
    public var actuators: [String]
    /// The items' names.
    public var content: [String]
    /// Events in one pass over the items.
    public var events: Int
    /// Passes over the items started (a single looping pattern loops inside one pass).
    public var passes: Int
    /// Scheduled actions the engine ran: commands, mode switches, power and timer actions, and the
    /// sound stream's periodic top-ups while sounds play.
    public var commands: Int
    /// Status reads the engine made while playing (fault polls, ROM effects polled to their end),
    /// not counted in `commands`.
    public var statusReads: Int
    /// Actions dispatched more than `lateTolerance` after their dispatch instant (from the
    /// scheduler's lateness histogram, to its 1/64 resolution).
    public var late: Int
    /// Transients dropped for lateness plus stream values skipped because a newer one was due.
    public var dropped: Int
    public var maximumLatenessMicroseconds: Double
    public var p99LatenessMicroseconds: Double
    /// Seconds on the engine's clock from the first deadline to the end.
    public var elapsedSeconds: Double
    /// Power transitions by kind, each with its slowest time against its budget.
    public var transitions: [TransitionTally]
    /// `stored` when a stored calibration was restored at wake, `none`, or `stored for N of M`.
    public var calibration: String
    /// The sound played beside the haptics; nil without a sound output.
    public var audio: SoundReport?

    public init(
        actuators: [String], content: [String], events: Int, passes: Int, commands: Int, statusReads: Int, late: Int, dropped: Int,
        maximumLatenessMicroseconds: Double, p99LatenessMicroseconds: Double, elapsedSeconds: Double, transitions: [TransitionTally],
        calibration: String, audio: SoundReport?
    ) {
        self.actuators = actuators
        self.content = content
        self.events = events
        self.passes = passes
        self.commands = commands
        self.statusReads = statusReads
        self.late = late
        self.dropped = dropped
        self.maximumLatenessMicroseconds = maximumLatenessMicroseconds
        self.p99LatenessMicroseconds = p99LatenessMicroseconds
        self.elapsedSeconds = elapsedSeconds
        self.transitions = transitions
        self.calibration = calibration
        self.audio = audio
    }
}
