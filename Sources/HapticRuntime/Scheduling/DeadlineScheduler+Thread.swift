import ActuatorHAL

extension DeadlineScheduler {
    /// Starts the timing thread (a no-op when it runs). With a `setup` (on Linux `RealtimeThread()`:
    /// SCHED_FIFO, 1 ns timer slack, memory locked as it is touched, its stack and the scheduler's
    /// buffers touched first) the thread applies it first and logs one warning naming how to allow
    /// what was refused; without one it runs as an ordinary thread (tests, or a process that must
    /// not hold real-time priority: memory locking is process-wide).
    ///
    /// The thread keeps the scheduler alive until `stopThread`.
    public func startThread(setup: (any TimingThreadSetup)? = nil) {
        condition.lock()
        defer { condition.unlock() }
        guard timingThread == nil else { return }
        let threadSleeper = sleeper ?? makeSleeper()
        sleeper = threadSleeper
        isRunning = true
        // Allocated before the thread runs, so the first dispatches neither allocate nor fault.
        dueBuffer.reserveCapacity(PendingCommands.reservedCommands)
        spinInterrupt.store(false, ordering: .relaxed)
        do {
            timingThread = try PlatformThread.start(name: name) { [self] in
                runTimingThread(setup: setup, sleeper: threadSleeper)
            }
        } catch {
            isRunning = false
            logger.error("no timing thread: \(error)")
        }
    }

    /// Stops the timing thread and waits for it to exit; commands not yet run stay queued for the
    /// next `startThread` or `run(until:)`. Called from an action (on the timing thread itself) it
    /// stops the thread after that action without waiting. On a clock that is not an
    /// `InterruptibleSleepClock` the thread notices the stop only at the end of its current slice
    /// (at most a millisecond of that clock's time).
    public func stopThread() {
        condition.lock()
        guard let thread = timingThread else {
            condition.unlock()
            return
        }
        isRunning = false
        condition.broadcast()
        let threadSleeper = sleeper
        condition.unlock()
        spinInterrupt.store(true, ordering: .releasing)
        threadSleeper?.interrupt()
        guard PlatformThread.current != thread else { return }
        condition.lock()
        while timingThread == thread {
            condition.wait()
        }
        condition.unlock()
    }

    private func makeSleeper() -> any InterruptibleSleeper {
        if let interruptible = clock as? any InterruptibleSleepClock {
            do {
                return try interruptible.makeInterruptibleSleeper()
            } catch {
                logger.warning("no interruptible sleep (\(error)); waking every millisecond while commands are pending")
            }
        }
        return SlicedClockSleeper(clock: clock)
    }

    private func runTimingThread(setup: (any TimingThreadSetup)?, sleeper initialSleeper: any InterruptibleSleeper) {
        if let setup { configureRealtime(with: setup) }
        var threadSleeper = initialSleeper
        condition.lock()
        isThreadReadyStorage = true
        while isRunning {
            // A caller on the immediate path is running actions: it runs whatever is due, then
            // hands the role back with a broadcast.
            if isDispatching {
                condition.wait()
                continue
            }
            guard let (next, aim) = pending.nextDispatch() else {
                condition.wait()
                continue
            }
            let now = clock.now
            if now >= next {
                isDispatching = true
                dueBuffer.removeAll(keepingCapacity: true)
                pending.takeDue(at: now, into: &dueBuffer)
                let batch = dueBuffer
                condition.unlock()
                dispatch(batch)
                condition.lock()
                isDispatching = false
                continue
            }
            waitTarget = next
            let wakeInstant = next - spinWindowState.margin(for: aim)
            condition.unlock()
            if now < wakeInstant {
                let outcome = Result { try threadSleeper.sleep(until: wakeInstant) }
                let woke = clock.now
                if case .failure(let error) = outcome {
                    reportSchedulerError(error)
                    threadSleeper = SlicedClockSleeper(clock: clock)
                }
                condition.lock()
                switch outcome {
                case .success(false): spinWindowState.observe(wakeUpError: woke - wakeInstant)
                case .success(true): break
                case .failure: sleeper = threadSleeper
                }
            } else {
                spin(until: next)
                condition.lock()
            }
            waitTarget = nil
        }
        timingThread = nil
        isThreadReadyStorage = false
        condition.broadcast()
        condition.unlock()
    }

    /// Busy-waits the last stretch the kernel's wake-up cannot be trusted with; a new earlier
    /// command or `stopThread` ends it early.
    private func spin(until instant: MonotonicInstant) {
        while clock.now < instant {
            if spinInterrupt.exchange(false, ordering: .acquiringAndReleasing) { return }
        }
    }

    private func configureRealtime(with threadSetup: any TimingThreadSetup) {
        let setup = threadSetup.configureCurrentThread()
        let shouldWarn = condition.withLock {
            realtimeSetupStorage = setup
            defer { hasWarnedAboutRealtime = true }
            return setup.warning != nil && !hasWarnedAboutRealtime
        }
        if shouldWarn, let warning = setup.warning {
            logger.warning("\(warning)")
        }
    }
}
