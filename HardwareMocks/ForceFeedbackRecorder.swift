import ActuatorHAL
import SystemPackage

/// The owner of a `SimulatedForceFeedbackDevice` that stores every upload and records everything
/// clients asked for, stamped on a clock: the device a test drives a `ForceFeedbackActuator` on
/// (the kernel lane's `ff-recorder` helper does the same with a real uinput device).
public final class ForceFeedbackRecorder: @unchecked Sendable {
    /// One request as recorded.
    public struct Entry: Sendable, Hashable {
        public var time: MonotonicInstant
        public var request: ForceFeedbackRequest
    }

    public let device: SimulatedForceFeedbackDevice
    private let clock: any MonotonicClock
    private let lock = Lock()
    private var recorded: [Entry] = []
    /// The answer to the next uploads, for tests of a device that refuses (EINVAL, ENOSPC).
    public var uploadAnswer: Errno?

    /// Records `device`'s requests as clients make them (it becomes the device's service hook).
    public init(device: SimulatedForceFeedbackDevice, clock: any MonotonicClock) {
        self.device = device
        self.clock = clock
        device.serviceHook = { [weak self] in self?.drain() }
    }

    /// Every request so far, oldest first; under the device's `historyLimit`, about that many of
    /// the newest, as the device keeps its own.
    public var entries: [Entry] { lock.withLock { recorded } }

    /// The uploads' effects, oldest first.
    public var uploads: [ForceFeedbackEffect] {
        entries.compactMap { if case .upload(let upload) = $0.request { upload.effect } else { nil } }
    }

    /// The plays and stops, oldest first.
    public var plays: [(effectID: Int, count: Int32)] {
        entries.compactMap { if case .play(let id, let count) = $0.request { (id, count) } else { nil } }
    }

    /// Answers and records whatever clients asked for.
    public func drain() {
        while let request = try? device.nextRequest(timeout: .zero) {
            let limit = device.historyLimit
            lock.withLock {
                recorded.append(Entry(time: clock.now, request: request))
                recorded.keepNewest(limit)
            }
            switch request {
            case .upload(let upload): try? device.complete(upload, result: uploadAnswer)
            case .erase(let erase): try? device.complete(erase, result: nil)
            case .play, .gain, .autocenter: break
            }
        }
    }
}
