/// The bus time of starting a ROM sequence: loading its sequencer slots (its steps and the
/// terminating slot) and starting it — what a trigger is expected to cost before the scheduler
/// has measured it. Linear in the slots, as the wire time of a write is in its bytes.
public struct ROMTriggerCost: Sendable, Hashable {
    /// What any start costs whatever its length: the load's transaction without slots, and the start.
    public var fixed: Duration
    /// What each slot loaded adds.
    public var perSlot: Duration

    public init(fixed: Duration, perSlot: Duration) {
        self.fixed = fixed
        self.perSlot = perSlot
    }

    /// A write per slot and one to start, each costing `write`: a driver that loads slots one by one.
    public static func oneWritePerSlot(_ write: Duration) -> ROMTriggerCost {
        ROMTriggerCost(fixed: write, perSlot: write)
    }

    /// The cost of a start loading `slots` slots, in nanoseconds (asked per trigger, where a
    /// Duration's multiplication goes through 128-bit arithmetic).
    public func nanoseconds(slots: Int) -> Int64 {
        fixed.nanoseconds + perSlot.nanoseconds * Int64(slots)
    }
}
