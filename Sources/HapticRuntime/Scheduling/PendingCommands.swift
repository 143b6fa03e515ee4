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
/// Cancellation is lazy: a token leaves `live` at once and its command is discarded when reached.
/// Not thread-safe; `DeadlineScheduler` guards it with its lock.
struct PendingCommands {
    private struct CostQueue {
        var estimate: CostEstimate
        var heap = CommandHeap()
    }

    private var queues: [CostKey: CostQueue] = [:]
    private var live: Set<ScheduledToken> = []
    private var nextSequence: UInt64 = 0

    /// Commands scheduled and neither run, dropped nor cancelled.
    var liveCount: Int { live.count }

    /// Queues a command and returns its token and current dispatch instant.
    mutating func insert(
        deadline: MonotonicInstant, commandClass: CommandClass, costKey: CostKey, expectedCost: Duration,
        action: @escaping @Sendable () throws -> Void
    ) -> (token: ScheduledToken, dispatchInstant: MonotonicInstant) {
        let token = ScheduledToken(sequence: nextSequence)
        nextSequence += 1
        let command = ScheduledCommand(token: token, deadline: deadline, commandClass: commandClass, costKey: costKey, action: action)
        var queue = queues.removeValue(forKey: costKey) ?? CostQueue(estimate: CostEstimate(expectedCost: expectedCost))
        queue.estimate.offer(expectedCost: expectedCost)
        queue.heap.insert(command)
        let lead = queue.estimate.lead
        queues[costKey] = queue
        live.insert(token)
        return (token, deadline - lead)
    }

    /// Forgets `token`'s command; false when it already ran, was dropped or cancelled.
    @discardableResult
    mutating func cancel(_ token: ScheduledToken) -> Bool {
        live.remove(token) != nil
    }

    mutating func cancelAll() {
        live.removeAll()
        for index in queues.values.indices {
            queues.values[index].heap.removeAll()
        }
    }

    /// Claims a taken command for running; false when it was cancelled after being taken.
    mutating func claim(_ token: ScheduledToken) -> Bool {
        live.remove(token) != nil
    }

    func lead(for costKey: CostKey) -> Duration {
        queues[costKey]?.estimate.lead ?? .zero
    }

    mutating func recordCost(_ cost: Duration, for costKey: CostKey) {
        queues[costKey]?.estimate.record(cost)
    }

    /// The earliest dispatch instant of a live command, discarding cancelled heads on the way.
    mutating func nextDispatchInstant() -> MonotonicInstant? {
        earliest()?.dispatchInstant
    }

    /// Removes and returns every live command whose dispatch instant is at or before `now`, in
    /// dispatch order (ties in schedule order). They stay live until claimed.
    mutating func takeDue(at now: MonotonicInstant) -> [DueCommand] {
        var due: [DueCommand] = []
        while let next = earliest(), next.dispatchInstant <= now {
            if let command = queues[next.costKey]?.heap.removeFirst() {
                due.append(DueCommand(command: command, dispatchInstant: next.dispatchInstant))
            }
        }
        return due
    }

    private mutating func earliest() -> (dispatchInstant: MonotonicInstant, sequence: UInt64, costKey: CostKey)? {
        var best: (dispatchInstant: MonotonicInstant, sequence: UInt64, costKey: CostKey)?
        for index in queues.values.indices {
            // Cancelled commands at the head would otherwise wake the thread for nothing.
            while let head = queues.values[index].heap.first, !live.contains(head.token) {
                _ = queues.values[index].heap.removeFirst()
            }
            guard let head = queues.values[index].heap.first else { continue }
            let instant = head.deadline - queues.values[index].estimate.lead
            if let current = best, (current.dispatchInstant, current.sequence) <= (instant, head.token.sequence) { continue }
            best = (instant, head.token.sequence, head.costKey)
        }
        return best
    }
}
