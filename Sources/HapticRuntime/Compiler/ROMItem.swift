import ActuatorHAL

/// Events played by one ROM sequencer trigger.
struct ROMItem: Sendable {
    var time: Double
    /// How long the chip is busy with the steps.
    var busy: Double
    var steps: [SequencerStep]
    /// The events it stands for, rendered as a stream instead if the trigger cannot play.
    var eventIndices: [Int]

    /// The time the chip needs for it, including a mode switch ahead of it.
    func occupancy(modeSwitchCost: Double) -> TimeSpan {
        TimeSpan(start: time - modeSwitchCost, end: time + busy)
    }

    var stepsDescription: String { steps.summary }
}
