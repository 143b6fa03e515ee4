import ActuatorHAL

/// Watches one actuator's streamed drive and says when it has run longer than its limit, so a
/// stuck pattern (a loop, a huge duration, a lost stop) cannot overheat a motor or coil.
struct ContinuousDriveGuard {
    /// Longest allowed continuous non-zero drive; nil = unlimited.
    let limit: Duration?
    /// When the current non-zero drive began.
    private(set) var driveStart: MonotonicInstant?
    /// The pending check at `driveStart + limit`.
    var checkToken: ScheduledToken?

    init(limit: Duration?) {
        self.limit = limit
    }

    /// Notes a newly written amplitude. Returns the instant a check must run when a drive has just
    /// begun (and a limit exists); clears the drive when it went back to zero.
    mutating func written(_ amplitude: Double, at now: MonotonicInstant) -> MonotonicInstant? {
        if amplitude == 0 {
            driveStart = nil
            return nil
        }
        guard driveStart == nil else { return nil }
        driveStart = now
        guard let limit else { return nil }
        return now + limit
    }

    /// The drive stopped by other means (stop, trigger, standby).
    mutating func reset() {
        driveStart = nil
    }
}
