import ActuatorHAL
import Foundation
import HapticRuntime

/// Plays a request and waits for its end (`?wait=true`, and `hapticboard play` through the
/// service), then reports it as `play` does: the scheduler's counters and lateness over the
/// player's life (shared with whatever else played meanwhile) and the power transitions.
final class PlayWaiter: @unchecked Sendable {
    private let service: HapticService
    private let lock = NSLock()
    private var ended: PlayerEndReason?
    private var continuation: CheckedContinuation<PlayerEndReason, Never>?
    private var transitions: [PowerTransitionReport] = []
    private var subscription: Int?
    private var metricsBefore: SchedulerMetrics?
    private var startedAt: MonotonicInstant?

    init(service: HapticService) {
        self.service = service
    }

    /// Starts the player, watching its end and the power transitions from now on.
    func play(_ request: ServicePlayRequest, from client: ServiceClient) throws(ServiceError) -> HapticService.Started {
        metricsBefore = service.scheduler.metrics
        startedAt = service.engine.clock.now
        subscription = service.subscribe { [weak self] event in
            guard case .powerTransition(let actuator, let transition, let from, let to, let elapsed, let budget) = event, let self,
                  let kind = PowerTransition(rawValue: transition), let before = PowerState(rawValue: from), let after = PowerState(rawValue: to) else { return }
            _ = actuator
            let report = PowerTransitionReport(transition: kind, from: before, to: after, elapsed: .nanoseconds(Int64(elapsed * 1000)), budget: .nanoseconds(Int64(budget * 1000)))
            self.lock.withLock { self.transitions.append(report) }
        }
        do {
            return try service.play(request, from: client) { [weak self] reason in self?.end(reason) }
        } catch {
            stopWatching()
            throw error
        }
    }

    /// Waits for the end and reports it; nil for a request that started no player.
    func report(of started: HapticService.Started, board: String) async -> (ended: PlayerEndReason, playback: PlaybackReport)? {
        guard let player = started.player, let before = metricsBefore, let start = startedAt else {
            stopWatching()
            return nil
        }
        let reason = await withCheckedContinuation { continuation in
            let already = lock.withLock { () -> PlayerEndReason? in
                if ended == nil { self.continuation = continuation }
                return ended
            }
            if let already { continuation.resume(returning: already) }
        }
        stopWatching()
        let after = service.scheduler.metrics
        let lateness = after.lateness.since(before.lateness)
        let board = service.board
        let calibrated = board.actuators.filter { player.actuators.contains($0.name) && $0.drv2605?.calibration != nil }.count
        return (reason, PlaybackReport(
            actuators: player.actuators, content: [player.name], events: 0, passes: 1,
            commands: after.dispatched - before.dispatched, statusReads: 0,
            late: lateness.estimatedCount(above: PlaybackReport.lateTolerance),
            dropped: (after.droppedLate - before.droppedLate) + (after.resynced - before.resynced),
            maximumLatenessMicroseconds: TransitionRecord.microseconds(lateness.maximum),
            p99LatenessMicroseconds: TransitionRecord.microseconds(lateness.percentile(99)),
            elapsedSeconds: max(0, (service.engine.clock.now - start).secondsValue),
            transitions: TransitionTally.tallies(lock.withLock { transitions }),
            calibration: calibrated == 0 ? "none" : calibrated == player.actuators.count ? "stored" : "stored for \(calibrated) of \(player.actuators.count)",
            audio: nil
        ))
    }

    private func end(_ reason: PlayerEndReason) {
        let waiting = lock.withLock { () -> CheckedContinuation<PlayerEndReason, Never>? in
            ended = reason
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume(returning: reason)
    }

    private func stopWatching() {
        if let subscription { service.unsubscribe(subscription) }
        subscription = nil
    }
}
