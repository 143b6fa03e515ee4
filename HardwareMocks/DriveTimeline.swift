import ActuatorHAL

/// What a simulated driver chip puts across its actuator over time, as a list of changes: from each
/// change's time on, the output holds `amplitude` (fraction of full scale, −1…1; negative = braking
/// drive in antiphase) at `frequency` hertz (nil = DC, as for an ERM).
///
/// Chip models append to it; `LRAModel` turns it into acceleration.
public struct DriveTimeline: Sendable, Hashable {
    public struct Change: Sendable, Hashable {
        public var time: MonotonicInstant
        public var amplitude: Double
        public var frequency: Double?

        public init(time: MonotonicInstant, amplitude: Double, frequency: Double?) {
            self.time = time
            self.amplitude = amplitude
            self.frequency = frequency
        }
    }

    public private(set) var changes: [Change] = []

    public init(changes: [Change] = []) {
        self.changes = changes
    }

    /// Records a new output level from `time` on; a change equal to the current one is not recorded.
    public mutating func record(_ change: Change) {
        if let last = changes.last, last.amplitude == change.amplitude, last.frequency == change.frequency { return }
        changes.append(change)
    }

    /// The output at `time`: the last change at or before it, or silence.
    public func level(at time: MonotonicInstant) -> (amplitude: Double, frequency: Double?) {
        var low = 0
        var high = changes.count
        while low < high {
            let middle = (low + high) / 2
            if changes[middle].time <= time { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return (0, nil) }
        let change = changes[low - 1]
        return (change.amplitude, change.frequency)
    }
}
