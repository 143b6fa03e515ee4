import ActuatorHAL
import Logging
import Synchronization

/// Runs actions at absolute deadlines on one timing thread, each issued early by its learned cost so
/// that its effect lands on the deadline.
///
/// - The timing thread (`startThread`) sleeps on the clock to `deadline − lead − spin window`, then
///   spins to `deadline − lead` (the dispatch instant) and runs the action. An earlier command
///   arriving while it sleeps wakes it at once. With nothing scheduled it blocks: zero CPU. The
///   spin window follows the wake-up error it measures (`SpinWindow`), so it spins only the few
///   microseconds the kernel's wake-up cannot be trusted with.
/// - A command already due when it is scheduled while the timing thread runs is not handed over:
///   it runs on the caller's thread before `schedule` returns (no sleep/wake round trip), unless
///   another thread is running actions at that moment, which then runs it next. A player's
///   opening goes further: run by its caller as it is planned, never queued (the direct path,
///   `DeadlineScheduler+Direct`), counted in `SchedulerMetrics.ranDirectly`.
/// - `lead(for:)` is a moving average of the measured durations of the cost key's actions, seeded
///   by `expectedCost`.
/// - Late commands follow `LatePolicy` and `CommandClass`: stale transients are dropped, streams
///   resync to their newest due value, control commands always run. Values of one stream falling
///   due within one write of each other go out as one write (the newest).
/// - `run(until:)` runs the same dispatch code on the caller's thread, for virtual-clock tests.
///
/// Actions run one at a time — whichever thread runs them holds the scheduler's single dispatch
/// role — never under the scheduler's lock, so they may schedule or cancel commands themselves.
/// Keep them short: a slow action delays every command behind it. Once running, dispatching a
/// command allocates nothing.
public final class DeadlineScheduler: @unchecked Sendable {
    /// The clock deadlines are on.
    public let clock: any MonotonicClock
    /// What happens to late commands.
    public let latePolicy: LatePolicy
    /// The timing thread's name (shown by `top -H`, `ps -L`), also used in log lines.
    public let name: String

    let logger: Logger
    /// Guards every `var` below and is what an idle timing thread waits on.
    let condition = ConditionLock()
    /// Tells a spinning timing thread to look at the queue again (new earlier command, or stop).
    let spinInterrupt = Atomic<Bool>(false)

    // The queue, the metrics and the dispatch role's buffers are read and changed on every
    // command: `@exclusivity(unchecked)` drops the run-time exclusivity check on them
    // (docs/performance.md, "Exclusivity checks"). The check only ever sees one thread's accesses
    // (the lock and the dispatch role order the threads), and no access to these calls anything
    // but value-type code of the standard library and this module, so no access can begin inside
    // another.
    @exclusivity(unchecked) var pending = PendingCommands()
    @exclusivity(unchecked) var recordedMetrics = SchedulerMetrics()
    var spinWindowState = SpinWindow()
    var errorHandlerStorage: (@Sendable (any Error, CostKey) -> Void)?
    /// The dispatch instant the timing thread is sleeping or spinning toward; nil when it is idle or dispatching.
    var waitTarget: MonotonicInstant?
    var isRunning = false
    /// Whether a thread (the timing thread or a caller on the immediate path) is running actions:
    /// only the holder of this role takes commands out of `pending` and runs them.
    var isDispatching = false
    /// Commands were queued with `deferringWake` since the timing thread last looked at the queue.
    var owesWake = false
    /// The batch being run by the dispatch role's holder; kept so that taking due commands reuses
    /// its storage instead of allocating.
    @exclusivity(unchecked) var dueBuffer: [DueCommand] = []
    /// What the direct path ran since it took the dispatch role, recorded when it gives the role
    /// back (`endDirectDispatch`). Only the role's holder touches it, so it needs no lock; its
    /// storage is kept.
    @exclusivity(unchecked) var directRuns: [DirectRunRecord] = []
    var timingThread: PlatformThread?
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
        let (token, isDue) = enqueue(at: deadline, class: commandClass, costKey: costKey, expectedCost: expectedCost, action: .closure(action))
        if isDue { runDueCommandsOnCaller() }
        return token
    }

    /// Queues a command without running it even when it is due (the engine runs what is due once
    /// its own bookkeeping is done, with `runDueCommandsOnCaller`); wakes the timing thread when the
    /// command is earlier than what it waits for, or with `deferringWake` leaves that to
    /// `wakeTimingThreadIfOwed`. Returns whether the command is due now with the timing thread
    /// running, i.e. whether the caller may run it at once.
    func enqueue(
        at deadline: MonotonicInstant, class commandClass: CommandClass, costKey: CostKey, expectedCost: Duration = .zero,
        action: ScheduledAction, deferringWake: Bool = false
    ) -> (token: ScheduledToken, isDue: Bool) {
        condition.lock()
        let (token, dispatchInstant) = pending.insert(
            deadline: deadline, commandClass: commandClass, costKey: costKey, expectedCost: expectedCost, action: action
        )
        let isDue = timingThread != nil && dispatchInstant <= clock.now
        guard !isDue else {
            condition.unlock()
            return (token, isDue)
        }
        if deferringWake {
            owesWake = true
            condition.unlock()
        } else {
            wakeTimingThread(for: dispatchInstant)
        }
        return (token, isDue)
    }

    /// Makes the timing thread look at the queue again now that commands were queued with
    /// `deferringWake`. The engine calls it after running what was due on its caller: waking the
    /// timing thread first would put its wake-up (a futex call, and on a VM an interrupt to the
    /// other core) and its competition for this lock between a start and its first write.
    func wakeTimingThreadIfOwed() {
        condition.lock()
        guard owesWake, let earliest = pending.nextDispatchInstant() else {
            owesWake = false
            condition.unlock()
            return
        }
        owesWake = false
        wakeTimingThread(for: earliest)
    }

    /// Signals an idle timing thread and interrupts a sleeping or spinning one whose target is
    /// later than `dispatchInstant`. Called with `condition` locked; unlocks it.
    private func wakeTimingThread(for dispatchInstant: MonotonicInstant) {
        let wakeSleeper = waitTarget.map { dispatchInstant < $0 } ?? false
        let sleeperToWake = wakeSleeper ? sleeper : nil
        condition.signal()
        condition.unlock()
        if wakeSleeper {
            spinInterrupt.store(true, ordering: .releasing)
            sleeperToWake?.interrupt()
        }
    }

    /// The immediate path: while the timing thread runs, runs every command due now on the calling
    /// thread, unless a thread already holds the dispatch role (it then runs them next, without a
    /// sleep). Called by `schedule` for a command due when scheduled, and by the engine after a
    /// call that scheduled one. Keeps one writer per bus: actions still run one at a time.
    func runDueCommandsOnCaller() {
        condition.lock()
        guard timingThread != nil, !isDispatching else {
            condition.unlock()
            return
        }
        isDispatching = true
        while true {
            dueBuffer.removeAll(keepingCapacity: true)
            pending.takeDue(at: clock.now, into: &dueBuffer)
            guard !dueBuffer.isEmpty else { break }
            let batch = dueBuffer
            condition.unlock()
            dispatch(batch)
            condition.lock()
        }
        pending.releaseDiscarded()
        isDispatching = false
        // The timing thread may be waiting for the role.
        condition.broadcast()
        condition.unlock()
    }

    /// Removes a command that has not started; does nothing when it already ran or was dropped.
    public func cancel(_ token: ScheduledToken) {
        condition.withLock { _ = pending.cancel(token) }
    }

    /// Removes the commands of `tokens` that have not started, under one taking of the lock.
    func cancel(_ tokens: [ScheduledToken]) {
        guard !tokens.isEmpty else { return }
        condition.withLock {
            for token in tokens { _ = pending.cancel(token) }
        }
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
        condition.withLock { Self.inPlace(&pending) { $0.lead(for: costKey) } }
    }

    /// The lead a command of `costKey` scheduled now would get: the learned one, or
    /// `expectedCost` (the seed `schedule` would give it) for a key never measured.
    public func lead(for costKey: CostKey, expectedCost: Duration) -> Duration {
        condition.withLock { Self.inPlace(&pending) { $0.lead(for: costKey, expectedCost: expectedCost) } }
    }

    /// Reads the queue where it is stored. A non-mutating method called on a struct a class stores
    /// runs on a copy of the whole struct (a retain and a release of each of its buffers: about 300
    /// instructions a `lead`, twice on a click's way to its first write); through `inout` it runs
    /// on the stored one.
    private static func inPlace<Result>(_ pending: inout PendingCommands, _ body: (inout PendingCommands) -> Result) -> Result {
        body(&pending)
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
