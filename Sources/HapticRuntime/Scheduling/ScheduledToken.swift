/// Identifies one scheduled command, to cancel it.
public struct ScheduledToken: Hashable, Sendable {
    /// Schedule order: also the tie-break between commands due at the same instant.
    let sequence: UInt64
    /// The command's queue in `PendingCommands` (where its key's learned lead is): running or
    /// cancelling it never hashes its key, and a cancellation tells that queue alone that its head
    /// may have gone.
    let queue: Int

    // The sequence alone identifies a command: hashing and comparing it alone is enough.
    public static func == (lhs: ScheduledToken, rhs: ScheduledToken) -> Bool {
        lhs.sequence == rhs.sequence
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(sequence)
    }
}
