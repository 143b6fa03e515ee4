import ActuatorHAL

/// What the scheduler holds for a player's planned commands: one object per player, referring to
/// it weakly, so that queued commands neither allocate a closure each nor keep a dropped player
/// (and its engine) alive.
final class PlayerCommandTarget: ScheduledCommandTarget, @unchecked Sendable {
    /// Set once, right after the player is made; read on whichever thread runs the command.
    weak var player: HapticPatternPlayer?

    func runScheduledCommand(_ entry: Int) throws {
        try player?.runPlanned(entry)
    }
}

/// A command of a player's current segment, in the order it is handed to the scheduler.
struct PlannedCommand {
    /// Index into the player's channels.
    var channel: Int
    var command: ActuatorCommand
    /// Pattern time it takes effect (see `SlicedCommand`).
    var time: Double
    /// When it must have taken effect.
    var deadline: MonotonicInstant
    /// When it is handed to the scheduler (`ActuatorChannel.issueLead`): the deadline, or earlier for PCM.
    var issueAt: MonotonicInstant
}
