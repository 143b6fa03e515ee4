import ActuatorHAL

/// A command taken out of the queue to run, with the instant it was meant to start.
struct DueCommand: Sendable {
    let command: ScheduledCommand
    /// Deadline minus the cost key's lead when the command was taken.
    let dispatchInstant: MonotonicInstant
}

/// The scheduler's queue: one heap per cost key, because all commands of a key share one lead, so
/// within a key deadline order is dispatch order and a lead learned later applies to commands
/// already queued. The next command overall is the earliest head by `deadline − lead`.
///
/// Queues live in an array and are found by key once, when a command is inserted; everything after
/// that goes by index, so taking and running commands neither hashes keys nor allocates.
/// Cancellation is lazy: a token leaves `live` at once and its command is discarded when reached.
/// Not thread-safe; `DeadlineScheduler` guards it with its lock.
struct PendingCommands {
    private struct CostQueue {
        var estimate: CostEstimate
        var heap = CommandHeap()
        /// The head last found live, and `cancellations` then: while neither changed it still is,
        /// so `earliest()` does not hash its token again (a set lookup per queue per call was most
        /// of taking a due command).
        var liveHead: (sequence: UInt64, cancellations: UInt64)?
        /// Counts cancellations of this queue's commands, so a head found live stays known live
        /// until one of them is cancelled (a start cancels an idle timer: the other queues' heads
        /// need no second look).
        var cancellations: UInt64 = 0
        /// The dispatch instant of the stream value last taken from this queue, in nanoseconds.
        var lastStreamValue: Int64?
    }

    /// A stream's value due within this of its stream's previous one continues it; after a
    /// longer gap it is an onset (a continuous event starting), which the timing thread aims at as
    /// closely as at a click's. An RTP stream's values are a period (1–5 ms) apart.
    static let streamContinuationGap = Duration.milliseconds(10)

    /// Room made in advance for the commands in flight (a stream's queue, the live set): a
    /// player keeps `HapticPatternPlayer.planHorizon` of its plan queued, a few hundred commands
    /// at the fastest update rates, so a playing stream never grows them.
    static let reservedCommands = 256

    private var queues: [CostQueue] = []
    private var queueIndex: [CostKey: Int] = [:]
    private var live = LiveTokenSet(minimumCapacity: 2 * PendingCommands.reservedCommands)
    private var nextSequence: UInt64 = 0
    /// Cancelled commands taken off the head of their queue, kept until `releaseDiscarded()`:
    /// destroying one releases its action, and when that is an actuator's idle timer (cancelled by
    /// every start) its closures and what they captured cost thousands of instructions that the
    /// first write of the start should not wait for.
    private var discarded: [ScheduledCommand] = []

    init() {
        discarded.reserveCapacity(Self.reservedCommands)
    }

    /// Commands scheduled and neither run, dropped nor cancelled.
    var liveCount: Int { live.count }

    /// Queues a command and returns its token and current dispatch instant.
    mutating func insert(
        deadline: MonotonicInstant, commandClass: CommandClass, costKey: CostKey, expectedCost: Duration, action: ScheduledAction
    ) -> (token: ScheduledToken, dispatchInstant: MonotonicInstant) {
        let index = queue(for: costKey, expectedCost: expectedCost, commandClass: commandClass)
        let token = ScheduledToken(sequence: nextSequence, queue: index)
        nextSequence += 1
        queues[index].heap.insert(ScheduledCommand(token: token, deadline: deadline, commandClass: commandClass, costKey: costKey, action: action))
        live.insert(token.sequence)
        return (token, MonotonicInstant(nanoseconds: deadline.nanoseconds - queues[index].estimate.leadNanoseconds))
    }

    /// The index of `costKey`'s queue, made on first use; `expectedCost` seeds its lead when
    /// nothing is known of it yet.
    private mutating func queue(for costKey: CostKey, expectedCost: Duration, commandClass: CommandClass) -> Int {
        if let existing = queueIndex[costKey] {
            queues[existing].estimate.offer(expectedCost: expectedCost)
            return existing
        }
        var queue = CostQueue(estimate: CostEstimate(expectedCost: expectedCost))
        if case .stream = commandClass { queue.heap.reserveCapacity(Self.reservedCommands) }
        queues.append(queue)
        queueIndex[costKey] = queues.count - 1
        return queues.count - 1
    }

    /// Forgets `token`'s command; false when it already ran, was dropped or cancelled.
    @discardableResult
    mutating func cancel(_ token: ScheduledToken) -> Bool {
        guard live.remove(token.sequence) else { return false }
        // A token of another scheduler (a caller's mistake) may name no queue here; a head it
        // leaves taken for live is claimed in vain and skipped (`claim`), never run.
        if queues.indices.contains(token.queue) { queues[token.queue].cancellations &+= 1 }
        return true
    }

    mutating func cancelAll() {
        live.removeAll()
        for index in queues.indices {
            queues[index].cancellations &+= 1
            queues[index].heap.removeAll()
        }
        releaseDiscarded()
    }

    /// Destroys the cancelled commands `takeDue` and the other lookups took off their queues. The
    /// lookups the timing thread makes before it waits call it; so does a caller that ran what
    /// was due, once it has run it.
    mutating func releaseDiscarded() {
        guard !discarded.isEmpty else { return }
        discarded.removeAll(keepingCapacity: true)
    }

    /// Claims a taken command for running; false when it was cancelled after being taken.
    mutating func claim(_ token: ScheduledToken) -> Bool {
        live.remove(token.sequence)
    }

    func lead(for costKey: CostKey) -> Duration {
        queueIndex[costKey].map { queues[$0].estimate.lead } ?? .zero
    }

    func lead(for costKey: CostKey, expectedCost: Duration) -> Duration {
        guard let index = queueIndex[costKey], queues[index].estimate.isSeeded else { return max(expectedCost, .zero) }
        return queues[index].estimate.lead
    }

    /// Feeds a measured duration into the lead of the command's key.
    mutating func recordCost(_ cost: Duration, of command: ScheduledCommand) {
        queues[command.token.queue].estimate.record(cost)
    }

    /// Feeds the measured duration of a command run without being queued (the scheduler's direct
    /// path) into the lead of its key, as if it had been.
    mutating func recordCost(_ cost: Duration, forKey costKey: CostKey, expectedCost: Duration, commandClass: CommandClass) {
        queues[queue(for: costKey, expectedCost: expectedCost, commandClass: commandClass)].estimate.record(cost)
    }

    /// The earliest dispatch instant of a live command, discarding cancelled heads on the way.
    mutating func nextDispatchInstant() -> MonotonicInstant? {
        defer { releaseDiscarded() }
        return earliest()?.dispatchInstant
    }

    /// Whether a live command is due at `now`. Cheaper than `nextDispatchInstant()` when nothing
    /// is: a queue whose head is not due is passed over without asking whether that head was
    /// cancelled (every start cancels its actuator's idle timers, far in the future), and
    /// cancelled heads are set aside only where one is due.
    mutating func hasDueCommand(at now: MonotonicInstant) -> Bool {
        for index in queues.indices {
            guard let head = queues[index].heap.firstOrder,
                  head.deadline.nanoseconds - queues[index].estimate.leadNanoseconds <= now.nanoseconds else { continue }
            if let live = liveHead(of: index), live.deadline.nanoseconds - queues[index].estimate.leadNanoseconds <= now.nanoseconds { return true }
        }
        return false
    }

    /// The earliest dispatch instant of a live command, and how closely the timing thread aims at
    /// it (`SpinWindow.margin(for:)`): a stream's value continuing it (within
    /// `streamContinuationGap` of the one before) and housekeeping less than an onset.
    mutating func nextDispatch() -> (instant: MonotonicInstant, aim: SpinWindow.Aim)? {
        defer { releaseDiscarded() }
        guard let next = earliest() else { return nil }
        if next.kind == .housekeeping { return (next.dispatchInstant, .none) }
        guard next.kind == .stream, let previous = queues[next.queue].lastStreamValue else { return (next.dispatchInstant, .onset) }
        let continues = next.dispatchInstant.nanoseconds - previous <= Self.streamContinuationGap.nanoseconds
        return (next.dispatchInstant, continues ? .continuingStream : .onset)
    }

    /// Appends to `due` every live command whose dispatch instant is at or before `now`, in
    /// dispatch order (ties in schedule order), and — so that values of a stream falling due
    /// while one bus write is still on the wire go out as one write — every stream command due
    /// within its own key's lead after `now`. They stay live until claimed.
    mutating func takeDue(at now: MonotonicInstant, into due: inout [DueCommand]) {
        while let next = earliest() {
            let lead = queues[next.queue].estimate.leadNanoseconds
            guard next.dispatchInstant <= now || (next.kind == .stream && next.dispatchInstant.nanoseconds <= now.nanoseconds + lead) else { return }
            if let command = queues[next.queue].heap.removeFirst() {
                due.append(DueCommand(command: command, dispatchInstant: next.dispatchInstant))
                if next.kind == .stream { queues[next.queue].lastStreamValue = next.dispatchInstant.nanoseconds }
            }
        }
    }

    /// The queue's first command not cancelled; cancelled ones at the head are taken off (they
    /// would otherwise wake the thread for nothing) and set aside in `discarded`.
    private mutating func liveHead(of index: Int) -> (deadline: MonotonicInstant, token: ScheduledToken, kind: CommandClass.Kind)? {
        while let head = queues[index].heap.firstOrder {
            if let known = queues[index].liveHead, known == (head.token.sequence, queues[index].cancellations) { return head }
            if live.contains(head.token.sequence) {
                queues[index].liveHead = (head.token.sequence, queues[index].cancellations)
                return head
            }
            if let cancelled = queues[index].heap.removeFirst() { discarded.append(cancelled) }
        }
        return nil
    }

    private mutating func earliest() -> (dispatchInstant: MonotonicInstant, sequence: UInt64, queue: Int, kind: CommandClass.Kind)? {
        var best: (dispatchInstant: MonotonicInstant, sequence: UInt64, queue: Int, kind: CommandClass.Kind)?
        for index in queues.indices {
            guard let head = liveHead(of: index) else { continue }
            let instant = MonotonicInstant(nanoseconds: head.deadline.nanoseconds - queues[index].estimate.leadNanoseconds)
            if let current = best, (current.dispatchInstant, current.sequence) <= (instant, head.token.sequence) { continue }
            best = (instant, head.token.sequence, index, head.kind)
        }
        return best
    }
}
