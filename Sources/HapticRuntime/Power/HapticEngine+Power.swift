import ActuatorHAL

/// Automatic power management and the explicit wake / prepare / standby / sleep calls.
///
/// Ahead of content the engine schedules a wake so that it finishes when the program's first
/// `.prepare` must start (the prepare itself is a scheduled command, issued its budget early), so
/// the first event lands on time from off, standby or ready. When the last player leaves an
/// actuator, timers take it to standby and then off (`IdleTimeouts`). Explicit calls win: they act
/// at once and cancel pending automatic transitions; after an explicit wake or prepare the idle
/// timers start again from the call, after an explicit sleep none are left.
extension HapticEngine {
    /// Schedules a wake of `channel` so that it is powered by `deadline` (when a prepare must start).
    func scheduleWake(of channel: ActuatorChannel, by deadline: MonotonicInstant) -> ScheduledToken {
        let cost = channel.actuator.budget(for: .wake)
        return scheduleControl(at: deadline, key: channel.keys.wake, expectedCost: cost) { [weak self, weak channel] in
            guard let self, let channel, channel.actuator.powerState == .off else { return }
            self.record(try channel.actuator.wake(), on: channel, automatic: true)
        }
    }

    func armIdleTimers(on channel: ActuatorChannel, timeouts given: IdleTimeouts? = nil) {
        cancelIdleTimers(on: channel)
        let now = clock.now
        let timeouts = given ?? channel.idleTimeouts
        if timeouts.standby < timeouts.sleep {
            channel.idleTokens.append(scheduleControl(at: now + timeouts.standby, key: channel.keys.standby, class: .housekeeping) { [weak self, weak channel] in
                guard let self, let channel, channel.activePlayers.isEmpty else { return }
                self.record(try channel.actuator.standby(), on: channel, automatic: true)
            })
        }
        channel.idleTokens.append(scheduleControl(at: now + timeouts.sleep, key: channel.keys.sleep, class: .housekeeping) { [weak self, weak channel] in
            guard let self, let channel, channel.activePlayers.isEmpty else { return }
            channel.idleTokens = []
            self.record(try channel.actuator.sleep(), on: channel, automatic: true)
            self.shutDownIfIdle()
        })
    }

    func cancelIdleTimers(on channel: ActuatorChannel) {
        // Every start cancels them: one taking of the scheduler's lock, and the storage kept.
        scheduler.cancel(channel.idleTokens)
        channel.idleTokens.removeAll(keepingCapacity: true)
    }

    /// Auto-shutdown: every actuator is off and nothing plays.
    private func shutDownIfIdle() {
        guard isAutoShutdownEnabled, isRunningUnlocked, activePlayers.isEmpty,
              channels.allSatisfy({ $0.actuator.powerState == .off }) else { return }
        setRunning(false)
        if let handler = stoppedHandler { later { handler(.idleTimeout) } }
    }

    // MARK: Explicit calls

    /// Powers every actuator up (off → standby), as Piano's `wakeTapticEngine`.
    public func wakeActuators() throws {
        try explicitly { channel in
            try channel.actuator.wake()
        }
    }

    /// Readies every actuator for the mode content most likely needs: ROM effects where the chip
    /// has a library, PCM for audio-driven actuators, otherwise real-time amplitude.
    public func prepareActuators() throws {
        try explicitly { channel in
            let capabilities = channel.compiler.capabilities
            let mode: DriveMode = capabilities.supportsPCM ? .pcm
                : (capabilities.romLibrary.map { $0 != .empty } ?? false) ? .romSequence : .realtimeAmplitude
            return try channel.actuator.prepare(for: mode)
        }
    }

    /// Readies every idle actuator (as `prepareActuators`) and keeps it ready while it stays idle
    /// for `duration`; then it goes straight to off (EN low). Content played meanwhile re-arms
    /// the usual idle timers when it ends.
    public func keepAwake(for duration: Duration) throws {
        try prepareActuators()
        locked {
            for channel in channels where channel.activePlayers.isEmpty {
                armIdleTimers(on: channel, timeouts: IdleTimeouts(standby: duration, sleep: duration))
            }
        }
    }

    /// Stops output and puts every idle actuator in standby.
    public func standbyActuators() throws {
        try explicitly { channel in
            try channel.actuator.standby()
        }
    }

    /// Stops output and turns every idle actuator off (EN low), as Piano's `putTapticEngineToSleep`.
    public func sleepActuators() throws {
        try explicitly(rearm: false) { channel in
            try channel.actuator.sleep()
        }
    }

    /// Runs `transition` on every actuator no player is using, recording each report; the first
    /// error is thrown after every actuator had its turn.
    private func explicitly(rearm: Bool = true, _ transition: (ActuatorChannel) throws -> PowerTransitionReport) throws {
        try locked {
            var firstError: (any Error)?
            for channel in channels where channel.activePlayers.isEmpty {
                cancelIdleTimers(on: channel)
                do {
                    record(try transition(channel), on: channel, automatic: false)
                } catch {
                    firstError = firstError ?? HapticEngineError.actuator(channel.name, error)
                }
                if rearm, channel.actuator.powerState != .off { armIdleTimers(on: channel) }
            }
            if let firstError { throw firstError }
        }
    }
}
