import ActuatorHAL

extension DeadlineScheduler {
    /// Dispatches everything due up to `instant` on the calling thread, sleeping on the clock to each
    /// dispatch instant in turn, then sleeps to `instant`. With a `VirtualClock` whose sleeps advance
    /// time this replays a schedule deterministically; no thread is involved. Not to be used while
    /// the timing thread runs.
    public func run(until instant: MonotonicInstant) {
        while let next = condition.withLock({ pending.nextDispatchInstant() }), next <= instant {
            guard sleepOnClock(until: next) else { return }
            dispatchDue(at: clock.now)
        }
        _ = sleepOnClock(until: instant)
    }

    /// Takes and runs every command due at `now`.
    func dispatchDue(at now: MonotonicInstant) {
        let batch = condition.withLock { () -> [DueCommand] in
            dueBuffer.removeAll(keepingCapacity: true)
            pending.takeDue(at: now, into: &dueBuffer)
            return dueBuffer
        }
        dispatch(batch)
    }

    /// Runs a batch of due commands in dispatch order, applying the late policy to each at the moment
    /// its turn comes (earlier actions of the batch make later ones later).
    func dispatch(_ batch: [DueCommand]) {
        // By index: `enumerated()` is generic code that, unspecialized, allocates per element.
        for index in 0..<batch.count {
            let due = batch[index]
            let command = due.command
            if StaleStreamCommands.isStale(index, in: batch) {
                condition.withLock {
                    if pending.claim(command.token) { recordedMetrics.resynced += 1 }
                }
                continue
            }
            let start = clock.now
            let lateness = start - due.dispatchInstant
            let shouldRun = condition.withLock {
                guard pending.claim(command.token) else { return false }
                if case .transient = command.commandClass, lateness > latePolicy.transientTolerance {
                    recordedMetrics.droppedLate += 1
                    return false
                }
                return true
            }
            guard shouldRun else { continue }
            run(command, lateness: lateness, start: start)
        }
    }

    private func run(_ command: ScheduledCommand, lateness: Duration, start: MonotonicInstant) {
        var failure: (any Error)?
        do {
            try command.action.run()
        } catch {
            failure = error
        }
        let end = clock.now
        let handler: (@Sendable (any Error, CostKey) -> Void)? = condition.withLock {
            countRun(of: command.commandClass, lateness: lateness, failed: failure != nil)
            guard failure != nil else {
                // A failed action's duration says nothing about what a successful one costs.
                pending.recordCost(end - start, of: command)
                return nil
            }
            return errorHandlerStorage
        }
        if let failure { handler?(failure, command.costKey) }
    }

    /// Counts a command that ran and keeps its lateness. Call with `condition` locked.
    func countRun(of commandClass: CommandClass, lateness: Duration, failed: Bool) {
        recordedMetrics.dispatched += 1
        // Housekeeping is not aimed at (`CommandClass.housekeeping`): its lateness is the
        // kernel's wake-up, not the scheduler's timing.
        if case .housekeeping = commandClass {} else { recordedMetrics.lateness.record(lateness) }
        if failed { recordedMetrics.errors += 1 }
    }

    /// Sleeps on the clock; a refused sleep is reported and ends the caller's loop.
    private func sleepOnClock(until instant: MonotonicInstant) -> Bool {
        do {
            try clock.sleep(until: instant)
            return true
        } catch {
            reportSchedulerError(error)
            return false
        }
    }

    /// Counts one of the scheduler's own failures and passes it to `errorHandler` under the scheduler's name.
    func reportSchedulerError(_ error: any Error) {
        let handler = condition.withLock {
            recordedMetrics.errors += 1
            return errorHandlerStorage
        }
        logger.error("\(error)")
        handler?(error, CostKey(name))
    }
}
