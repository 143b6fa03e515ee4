import ActuatorHAL
import Foundation
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
    private let lock = NSLock()
    private var recorded: [Entry] = []
    private var keptHistory: Int?
    /// The answer to the next uploads, for tests of a device that refuses (EINVAL, ENOSPC).
    public var uploadAnswer: Errno?

    /// Records `device`'s requests as clients make them (it becomes the device's service hook).
    public init(device: SimulatedForceFeedbackDevice, clock: any MonotonicClock) {
        self.device = device
        self.clock = clock
        device.serviceHook = { [weak self] in self?.drain() }
    }

    /// When set, `entries` keeps only about this many of the newest requests (and the device its
    /// own history likewise): a long run stays in bounded memory. Nil (the default): all are kept.
    public var historyLimit: Int? {
        get { lock.withLock { keptHistory } }
        set {
            lock.withLock {
                keptHistory = newValue
                recorded.keepNewest(newValue)
            }
            device.historyLimit = newValue
        }
    }

    /// Every request so far (the newest under `historyLimit`), oldest first.
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
            lock.withLock {
                recorded.append(Entry(time: clock.now, request: request))
                recorded.keepNewest(keptHistory)
            }
            switch request {
            case .upload(let upload): try? device.complete(upload, result: uploadAnswer)
            case .erase(let erase): try? device.complete(erase, result: nil)
            case .play, .gain, .autocenter: break
            }
        }
    }
}
