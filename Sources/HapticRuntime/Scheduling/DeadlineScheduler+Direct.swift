import ActuatorHAL

/// The direct path: a caller that has just planned commands due now runs them itself, in order,
/// without queueing them, while the timing thread runs and no other thread runs actions.
///
/// The immediate path (`runDueCommandsOnCaller`) already made a start's first write on the
/// caller's thread, but through the queue: inserting each command, finding it again among every
/// key's queue, claiming it and recording it, each under the scheduler's lock, cost about as many
/// instructions as the rest of a start before its first write (and under emulation, or on a slow
/// core, each instruction is time a game's rumble waits). Holding the dispatch role, the caller
/// runs such a command as the role's holder would — nothing queued is due before it — and records
/// it as a dispatched one: counted, its lateness kept, its duration learned for its key.
extension DeadlineScheduler {
    /// A command the direct path ran, as `countRun` and the cost estimate need it.
    struct DirectRunRecord {
        var commandClass: CommandClass
        var lateness: Duration
        var costKey: CostKey
        var expectedCost: Duration
        /// How long it took; nil when it failed (a failure says nothing about what it costs).
        var cost: Duration?
    }

    /// Takes the dispatch role for the caller, when the timing thread runs, no thread holds the
    /// role and no queued command is due (those run first, in their order, by the immediate
    /// path). Give it back with `endDirectDispatch()`.
    func beginDirectDispatch() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard timingThread != nil, !isDispatching, !pending.hasDueCommand(at: clock.now) else { return false }
        isDispatching = true
        directRuns.removeAll(keepingCapacity: true)
        return true
    }

    /// The instant a command of `costKey` due at `deadline` would be dispatched — `deadline`
    /// minus the key's lead (`expectedCost` for a key never measured) — when that is now or
    /// earlier; nil when the command is not due yet.
    func directDispatchInstant(deadline: MonotonicInstant, costKey: CostKey, expectedCost: Duration) -> MonotonicInstant? {
        let dispatch = deadline - lead(for: costKey, expectedCost: expectedCost)
        return dispatch <= clock.now ? dispatch : nil
    }

    /// With the role held: runs `action` now, as the role's holder runs a command dispatched at
    /// `dispatchInstant`. It is counted, its lateness kept and its duration learned for `costKey`
    /// when the role is given back, not before: nothing but the action stands between a start and
    /// its first write. Returns the error it threw, for the caller to handle: the error handler
    /// is not called (the caller may hold locks a handler would need).
    func runDirectly(
        dispatchedAt dispatchInstant: MonotonicInstant, class commandClass: CommandClass, costKey: CostKey, expectedCost: Duration,
        _ action: () throws -> Void
    ) -> (any Error)? {
        let start = clock.now
        var failure: (any Error)?
        do {
            try action()
        } catch {
            failure = error
        }
        let cost = failure == nil ? clock.now - start : nil
        directRuns.append(DirectRunRecord(commandClass: commandClass, lateness: start - dispatchInstant, costKey: costKey, expectedCost: expectedCost, cost: cost))
        return failure
    }

    /// Records what the direct path ran and gives the dispatch role back. A command another
    /// thread queued meanwhile, already due, was left to the role's holder: the caller runs it
    /// (`runDueCommandsOnCaller`) once it can.
    func endDirectDispatch() {
        condition.withLock {
            for run in directRuns {
                countRun(of: run.commandClass, lateness: run.lateness, failed: run.cost == nil)
                recordedMetrics.ranDirectly += 1
                if let cost = run.cost { pending.recordCost(cost, forKey: run.costKey, expectedCost: run.expectedCost, commandClass: run.commandClass) }
            }
            directRuns.removeAll(keepingCapacity: true)
            isDispatching = false
            // The timing thread may be waiting for the role.
            condition.broadcast()
        }
    }
}
