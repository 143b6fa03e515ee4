/// Identifies one scheduled command, to cancel it.
public struct ScheduledToken: Hashable, Sendable {
    /// Schedule order: also the tie-break between commands due at the same instant.
    let sequence: UInt64
}
