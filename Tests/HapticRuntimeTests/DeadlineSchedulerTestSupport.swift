import ActuatorHAL
import Foundation
import HardwareMocks
@testable import HapticRuntime

/// What the scheduled actions did, in order, from whichever thread ran them.
final class ActionLog: @unchecked Sendable {
    struct Entry: Equatable {
        var label: String
        var time: MonotonicInstant
    }

    private let lock = NSLock()
    private var storage: [Entry] = []

    var entries: [Entry] { lock.withLock { storage } }
    var labels: [String] { entries.map(\.label) }

    func append(_ label: String, at time: MonotonicInstant) {
        lock.withLock { storage.append(Entry(label: label, time: time)) }
    }

    /// An action that logs `label` with the clock's time when it starts, then lets `cost` of virtual time pass.
    func action(_ label: String, clock: VirtualClock, cost: Duration = .zero) -> @Sendable () throws -> Void {
        { [self] in
            append(label, at: clock.now)
            if cost > .zero { clock.advance(by: cost) }
        }
    }
}

/// Errors passed to a scheduler's `errorHandler`.
final class ErrorLog: @unchecked Sendable {
    struct Entry {
        var error: any Error
        var costKey: CostKey
    }

    private let lock = NSLock()
    private var storage: [Entry] = []

    var entries: [Entry] { lock.withLock { storage } }

    func append(_ error: any Error, _ costKey: CostKey) {
        lock.withLock { storage.append(Entry(error: error, costKey: costKey)) }
    }
}

/// An error an action throws on purpose.
struct InjectedActionError: Error, Equatable {
    var tag: Int
}

func ms(_ milliseconds: Double) -> MonotonicInstant {
    MonotonicInstant(nanoseconds: Int64((milliseconds * 1_000_000).rounded()))
}
