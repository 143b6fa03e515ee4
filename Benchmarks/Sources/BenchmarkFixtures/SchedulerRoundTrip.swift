import ActuatorHAL
import ActuatorHALLinux
import Foundation
import HapticRuntime

/// `DeadlineScheduler.schedule(at: now)` of a zero-cost action on a running timing thread, timed
/// until the action runs.
public final class SchedulerRoundTrip {
    public let clock = SystemMonotonicClock()
    public let scheduler: DeadlineScheduler
    private let ran = DispatchSemaphore(value: 0)

    /// Starts the timing thread (no real-time request).
    public init() {
        scheduler = DeadlineScheduler(clock: clock, name: "bench-timing")
        scheduler.startThread()
    }

    deinit {
        scheduler.stopThread()
    }

    /// Schedules one action for now and waits until it ran; returns schedule call → action start.
    @discardableResult
    public func once() -> Duration {
        let clock = clock
        let ran = ran
        let requested = clock.now
        let started = StartStamp()
        scheduler.schedule(at: requested, class: .control, costKey: "bench/now") {
            started.instant = clock.now
            ran.signal()
        }
        ran.wait()
        return (started.instant ?? requested) - requested
    }
}

/// Written by the action, read after the semaphore handed it over.
private final class StartStamp: @unchecked Sendable {
    var instant: MonotonicInstant?
}
