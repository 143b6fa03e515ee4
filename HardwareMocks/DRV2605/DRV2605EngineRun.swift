import ActuatorHAL

/// A run of the DRV2605 playback engine started by GO: what it is, when GO clears (nil = never),
/// and the output changes it has yet to make. The model keeps at most one.
struct DRV2605EngineRun {
    enum Kind: Equatable {
        case sequence
        case calibration
        case diagnostics
    }

    var kind: Kind
    var end: MonotonicInstant?
    /// Output changes later than the last settle, in time order.
    var pendingDrive: [DriveTimeline.Change]

    /// Removes and returns the pending changes at or before `instant`.
    mutating func takeDrive(through instant: MonotonicInstant) -> [DriveTimeline.Change] {
        let due = pendingDrive.prefix { $0.time <= instant }
        pendingDrive.removeFirst(due.count)
        return Array(due)
    }

    /// Whether the run has finished by `instant`.
    func isFinished(at instant: MonotonicInstant) -> Bool {
        guard let end else { return false }
        return end <= instant
    }
}
