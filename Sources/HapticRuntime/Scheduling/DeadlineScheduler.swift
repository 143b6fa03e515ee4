import ActuatorHAL
import Foundation
import Logging
import Synchronization

/// Runs actions at absolute deadlines on one timing thread, each issued early by its learned cost so
/// that its effect lands on the deadline.
///
/// - The timing thread (`startThread`) sleeps on the clock to `deadline − lead − spin window`, then
///   spins to `deadline − lead` (the dispatch instant) and runs the action. An earlier command
///   arriving while it sleeps wakes it at once. With nothing scheduled it blocks: zero CPU.
/// - `lead(for:)` is a moving average of the measured durations of the cost key's actions, seeded
///   by `expectedCost`.
/// - Late commands follow `LatePolicy` and `CommandClass`: stale transients are dropped, streams
///   resync to their newest due value, control commands always run.
/// - `run(until:)` runs the same dispatch code on the caller's thread, for virtual-clock tests.
///
/// Actions run one at a time, on the timing thread (or the `run(until:)` caller), never under the
/// scheduler's lock, so they may schedule or cancel commands themselves. Keep them short: a slow
/// action delays every command behind it.
public final class DeadlineScheduler: @unchecked Sendable {
    /// The clock deadlines are on.
    public let clock: any MonotonicClock
    /// What happens to late commands.
    public let latePolicy: LatePolicy
    /// The timing thread's name (shown by `top -H`, `ps -L`), also used in log lines.
    public let name: String

    let logger: Logger
    /// Guards every `var` below and is what an idle timing thread waits on.
    let condition = NSCondition()
    /// Tells a spinning timing thread to look at the queue again (new earlier command, or stop).
    let spinInterrupt = Atomic<Bool>(false)

    var pending = PendingCommands()
    var recordedMetrics = SchedulerMetrics()
    var spinWindowState = SpinWindow()
    var errorHandlerStorage: (@Sendable (any Error, CostKey) -> Void)?
    /// The dispatch instant the timing thread is sleeping or spinning toward; nil when it is idle or dispatching.
    var waitTarget: MonotonicInstant?
    var isRunning = false
    var timingThread: Thread?
    var sleeper: (any InterruptibleSleeper)?
    var realtimeSetupStorage: RealtimeSetup?
    /// The timing thread finished its set-up and is taking commands.
    var isThreadReadyStorage = false
    var hasWarnedAboutRealtime = false

    /// A scheduler on `clock`. No thread runs until `startThread`.
    /// - Parameters:
    ///   - latePolicy: how late a transient may be before it is dropped.
    ///   - name: the timing thread's name.
    public init(clock: any MonotonicClock, latePolicy: LatePolicy = .init(), name: String = "hapticboard-timing") {
        self.clock = clock
        self.latePolicy = latePolicy
        self.name = name
        var logger = Logger(label: "hapticboard.scheduler")
        logger[metadataKey: "scheduler"] = "\(name)"
        self.logger = logger
    }

    /// Runs `action` at `deadline − lead(for: costKey)`.
    ///
    /// - Parameters:
    ///   - deadline: when the action's effect must land.
    ///   - class: how a late command is treated.
    ///   - costKey: what the action costs (`CostKey`, e.g. `amplitude` on `main`): commands with the same key share one lead,
    ///     learned from their measured durations.
    ///   - expectedCost: the lead to start from before anything of this key was measured (e.g. the
    ///     bus time of the write); ignored once the key has a lead.
    ///   - action: the work; a thrown error goes to `errorHandler` and is counted.
    /// - Returns: a token for `cancel`.
    @discardableResult
    public func schedule(
        at deadline: MonotonicInstant, class commandClass: CommandClass, costKey: CostKey, expectedCost: Duration = .zero,
        _ action: @escaping @Sendable () throws -> Void
    ) -> ScheduledToken {
        condition.lock()
        let (token, dispatchInstant) = pending.insert(
            deadline: deadline, commandClass: commandClass, costKey: costKey, expectedCost: expectedCost, action: action
        )
        let wakeSleeper = waitTarget.map { dispatchInstant < $0 } ?? false
        let sleeperToWake = wakeSleeper ? sleeper : nil
        condition.signal()
        condition.unlock()
        if wakeSleeper {
            spinInterrupt.store(true, ordering: .releasing)
            sleeperToWake?.interrupt()
        }
        return token
    }

    /// Removes a command that has not started; does nothing when it already ran or was dropped.
    public func cancel(_ token: ScheduledToken) {
        condition.withLock { _ = pending.cancel(token) }
    }

    /// Removes every command that has not started. Learned leads are kept.
    public func cancelAll() {
        condition.withLock { pending.cancelAll() }
    }

    /// Called on the timing thread (or the `run(until:)` caller) with each error an action throws and
    /// the action's cost key; the scheduler's own failures (a refused sleep) come with a key named
    /// after the scheduler and no actuator.
    public var errorHandler: (@Sendable (any Error, CostKey) -> Void)? {
        get { condition.withLock { errorHandlerStorage } }
        set { condition.withLock { errorHandlerStorage = newValue } }
    }

    /// The current lead for `costKey`: how long before its deadline such a command is issued. Zero for
    /// a key never scheduled.
    public func lead(for costKey: CostKey) -> Duration {
        condition.withLock { pending.lead(for: costKey) }
    }

    /// Commands scheduled that have neither run, been dropped nor been cancelled.
    public var pendingCount: Int {
        condition.withLock { pending.liveCount }
    }

    /// How long before a dispatch instant the timing thread currently stops sleeping and spins.
    public var spinWindow: Duration {
        condition.withLock { spinWindowState.duration }
    }

    /// What the timing thread's real-time set-up achieved; nil before a thread started with a
    /// set-up has tried, or without one.
    public var realtimeSetup: RealtimeSetup? {
        condition.withLock { realtimeSetupStorage }
    }

    /// Whether the timing thread has finished its set-up (locking memory takes a while on a small
    /// board) and takes commands: wait for it before choosing a first deadline close to now.
    public var isThreadReady: Bool {
        condition.withLock { isThreadReadyStorage }
    }

    /// A snapshot of the counters and the lateness histogram.
    public var metrics: SchedulerMetrics {
        condition.withLock {
            var snapshot = recordedMetrics
            snapshot.lateness = recordedMetrics.lateness.detachedCopy()
            return snapshot
        }
    }
}
