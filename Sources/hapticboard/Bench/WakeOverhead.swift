import ActuatorHAL
import ActuatorHALLinux
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HapticRuntime

/// Overhead from asking for a zero-cost action "now" to the action running, one request at a time
/// with a pause between them, so the waker has gone idle every time (the case of a player started
/// by a button press).
struct WakeOverhead {
    /// What is woken.
    enum Method: String, Encodable, CaseIterable {
        case deadlineScheduler = "DeadlineScheduler.schedule(at: now)"
        case dispatchAsync = "DispatchQueue.async"
    }

    let clock: SystemMonotonicClock
    let scheduler: DeadlineScheduler
    let queue: DispatchQueue
    let samples: Int
    /// The pause before each request.
    var pauseBetweenRequests = WakeOverhead.pause

    /// The pause between requests: long enough for a thread to stop spinning and block.
    static let pause = Duration.milliseconds(1)
    /// How long one request may take before the run gives up on it.
    static let patience: TimeInterval = 2

    func run(_ method: Method) -> (overhead: LatenessHistogram, missing: Int) {
        let recorder = LatenessRecorder()
        let clock = clock
        for index in 0..<samples {
            try? clock.sleep(for: pauseBetweenRequests)
            let requested = clock.now
            switch method {
            case .deadlineScheduler:
                scheduler.schedule(at: requested, class: .control, costKey: "bench/now") {
                    recorder.record(clock.now - requested)
                }
            case .dispatchAsync:
                queue.async {
                    recorder.record(clock.now - requested)
                }
            }
            guard recorder.waitForSamples(index + 1, giveUp: Date(timeIntervalSinceNow: Self.patience)) else {
                return (recorder.snapshot, samples - index)
            }
        }
        return (recorder.snapshot, 0)
    }
}
