/// What the scheduler does with commands it reaches late.
public struct LatePolicy: Sendable, Hashable {
    /// How late a `.transient` command may run before it is dropped. A few milliseconds: later than
    /// that a tap no longer feels simultaneous with the sound or picture it belongs to.
    public var transientTolerance: Duration

    /// A policy dropping transients later than `transientTolerance`.
    public init(transientTolerance: Duration = .milliseconds(3)) {
        self.transientTolerance = transientTolerance
    }
}
