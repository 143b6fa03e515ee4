import ActuatorHAL

/// What a simulated driver chip puts across its actuator over time, as a list of changes: from each
/// change's time on, the output holds `amplitude` (fraction of full scale, −1…1; negative = braking
/// drive in antiphase) at `frequency` hertz (nil = DC, as for an ERM), which is `volts` across the
/// actuator (RMS for AC drive, average for DC) when the chip model knows its full-scale voltage.
///
/// Chip models append to it; `LRAModel` turns it into acceleration.
public struct DriveTimeline: Sendable, Hashable {
    public struct Change: Sendable, Hashable {
        public var time: MonotonicInstant
        public var amplitude: Double
        public var frequency: Double?
        /// The output voltage, signed like `amplitude`; nil when unknown.
        public var volts: Double?

        public init(time: MonotonicInstant, amplitude: Double, frequency: Double?, volts: Double? = nil) {
            self.time = time
            self.amplitude = amplitude
            self.frequency = frequency
            self.volts = volts
        }
    }

    public private(set) var changes: [Change] = []
    /// When set, only the newest changes are kept (a long run's timeline stays bounded).
    public var limit: Int?

    public init(changes: [Change] = []) {
        self.changes = changes
    }

    /// Records a new output level from `time` on; a change equal to the current one is not recorded.
    public mutating func record(_ change: Change) {
        if let last = changes.last, last.amplitude == change.amplitude, last.frequency == change.frequency { return }
        changes.append(change)
        changes.keepNewest(limit)
    }

    /// The highest RMS voltage over any `window` between `start` and `end` (the output's `volts`,
    /// each change's level held until the next): what heats an actuator's coil. Windows start at
    /// each change, which is where the maximum of a piecewise-constant level's window RMS lies.
    public func maximumRMSVolts(over window: Duration, from start: MonotonicInstant, to end: MonotonicInstant) -> Double {
        let starts = [start] + changes.map(\.time).filter { $0 > start && $0 < end }
        return starts.map { rmsVolts(from: $0, to: $0 + window) }.max() ?? 0
    }

    /// The RMS of `volts` between two instants.
    public func rmsVolts(from start: MonotonicInstant, to end: MonotonicInstant) -> Double {
        guard end > start else { return 0 }
        var energy = 0.0
        var cursor = start
        var current = volts(at: start)
        for change in changes where change.time > start && change.time < end {
            energy += current * current * (change.time - cursor).secondsValue
            cursor = change.time
            current = change.volts ?? 0
        }
        energy += current * current * (end - cursor).secondsValue
        return (energy / (end - start).secondsValue).squareRoot()
    }

    private func volts(at time: MonotonicInstant) -> Double {
        changes.last { $0.time <= time }?.volts ?? 0
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
