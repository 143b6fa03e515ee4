extension HapticEvent {
    /// How long a transient sounds, in seconds. Core Haptics gives transients a fixed length it does
    /// not publish; 20 ms is the single-impulse length Android's haptics guidance recommends and
    /// roughly what a tap on a phone lasts, so durations and evaluation use it everywhere.
    public static let transientNominalDuration = 0.02

    /// How long the event sounds: a transient its nominal length, any other event its
    /// `EventDuration` (missing or negative → 0).
    public var soundingDuration: Double {
        switch type {
        case .hapticTransient: Self.transientNominalDuration
        default: max(0, duration ?? 0)
        }
    }

    /// How far the event reaches into the pattern: its sounding length, except that a duration
    /// given on a transient pads the pattern (Apple's rule) without making it sound longer.
    public var occupiedDuration: Double {
        switch type {
        case .hapticTransient: max(Self.transientNominalDuration, duration ?? 0)
        default: soundingDuration
        }
    }

    /// When the event stops sounding.
    public var soundingEnd: Double { time + soundingDuration }
}

extension ParameterCurve {
    /// The time of the curve's last control point, after which its value holds.
    public var endTime: Double { time + (controlPoints.map(\.time).max() ?? 0) }
}

extension HapticPattern {
    /// The pattern duration rule: the latest start of an event plus that event's (occupied)
    /// duration, or of a dynamic parameter, or the end of a parameter curve — whichever is last.
    public var duration: Double {
        let eventEnds = events.map { $0.time + $0.occupiedDuration }
        let parameterTimes = parameters.map(\.time)
        let curveEnds = parameterCurves.map(\.endTime)
        return max(0, (eventEnds + parameterTimes + curveEnds).max() ?? 0)
    }
}
