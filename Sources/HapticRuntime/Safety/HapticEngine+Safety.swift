import ActuatorHAL

/// The safety rule: stopping, cancelling or any error leaves every actuator stopped and in standby.
extension HapticEngine {
    /// Stops every player and every actuator (stopped, standby), drops every pending command and
    /// arms the idle sleep. Returns the first actuator error. Call under the lock.
    func haltEverything() -> (any Error)? {
        for player in Array(activePlayers.values) {
            player.halt()
        }
        activePlayers = [:]
        // The sound stream stops with the haptics, whatever stopped the engine.
        var firstError: (any Error)? = haltAudio()
        for channel in channels {
            if let error = halt(channel) {
                firstError = firstError ?? HapticEngineError.actuator(channel.name, error)
            }
        }
        return firstError
    }

    /// Forgets `channel`'s players and watches (idle timers, status poll, drive check), makes it
    /// safe and arms its idle sleep. Returns the bus error when it could not be stopped over the bus.
    private func halt(_ channel: ActuatorChannel) -> (any Error)? {
        cancelIdleTimers(on: channel)
        cancelStatusPoll(on: channel)
        channel.sequenceMayRun = false
        if let token = channel.driveGuard.checkToken { scheduler.cancel(token) }
        channel.driveGuard = ContinuousDriveGuard(limit: channel.driveGuard.limit)
        channel.activePlayers = []
        channel.mixer.reset()
        let error = makeSafe(channel)
        if channel.actuator.powerState != .off { armIdleTimers(on: channel) }
        return error
    }

    /// Output stopped and standby; when the bus refuses, EN low (sleep) as the last resort.
    /// Returns the bus error when the chip could not be stopped over the bus.
    func makeSafe(_ channel: ActuatorChannel) -> (any Error)? {
        let actuator = channel.actuator
        guard actuator.powerState != .off else { return nil }
        do {
            try actuator.stop()
            record(try actuator.standby(), on: channel, automatic: true)
            return nil
        } catch {
            if let report = try? actuator.sleep() { record(report, on: channel, automatic: true) }
            return error
        }
    }

    /// An action failed on the timing thread (reported by the scheduler's `errorHandler` with the
    /// command's cost key, which names the actuators it drove).
    ///
    /// When the key names some of the engine's actuators but not all, the fault stays with them:
    /// the players using them end (their completion gets the error; on their other actuators they
    /// leave as a stop would), the failing actuators are made safe and power-cycled so their
    /// drivers re-initialise them, and every other player plays on. The engine keeps running and
    /// calls `actuatorFaultHandler`. A kiosk's second actuator, or a controller's other motor, does
    /// not go quiet because one chip failed.
    ///
    /// When the fault names every actuator, or none (the sound output, the scheduler itself), the
    /// engine resets as Core Haptics' does: every player stops, every actuator is made safe, the
    /// failing chips are power-cycled; `stoppedHandler(.systemError)`, then the engine runs again
    /// and `resetHandler` is called (players made before must be recreated). When a chip could not
    /// be stopped or re-initialised the engine stays stopped: `stoppedHandler(.deviceLost)`.
    ///
    /// A transfer that timed out means a stuck bus: the failing chips are switched off first,
    /// without the bus (EN low), and not re-initialised. Over that bus every stop and every
    /// configuration write would time out through its retries in turn — a tenth of a second
    /// apiece — while the output drives on, and a re-initialisation would raise EN again for
    /// nothing. They stay off until a later wake finds the bus working.
    func handleFault(_ error: any Error, costKey: CostKey) {
        enum Handled { case isolated(ActuatorFaultReport), engineStopped(StoppedReason, reset: Bool) }
        let handled = locked { () -> Handled in
            recordFault(error)
            let failing = channels.filter { costKey.actuators.contains($0.name) }
            let busTimedOut = Self.timedOutOnABus(error)
            if busTimedOut {
                for channel in failing {
                    if let report = channel.actuator.powerOffWithoutTheBus() { record(report, on: channel, automatic: true) }
                }
            }
            if !failing.isEmpty, failing.count < channels.count {
                endPlayers(using: failing, reporting: error)
                for channel in failing { _ = halt(channel) }
                let cameBack = !busTimedOut && failing.map(reinitialise).allSatisfy { $0 }
                return .isolated(ActuatorFaultReport(actuators: failing.map(\.name), outcome: cameBack ? .systemError : .deviceLost, fault: error))
            }
            setRunning(false)
            _ = haltEverything()
            guard !failing.isEmpty else { return .engineStopped(.systemError, reset: false) }
            guard !busTimedOut else { return .engineStopped(.deviceLost, reset: false) }
            let cameBack = failing.map(reinitialise).allSatisfy { $0 }
            return .engineStopped(cameBack ? .systemError : .deviceLost, reset: cameBack)
        }
        switch handled {
        case .isolated(let report):
            actuatorFaultHandler?(report)
        case .engineStopped(let reason, let reset):
            stoppedHandler?(reason)
            guard reset else { return }
            locked { setRunning(true) }
            resetHandler?()
        }
    }

    /// Ends every player that uses one of `failing`, reporting `error` to it, with the failing
    /// actuators' names when it does not say them already. Call under the lock.
    private func endPlayers(using failing: [ActuatorChannel], reporting error: any Error) {
        let names = Set(failing.map(\.name))
        let reported: any Error = switch error {
        case HapticEngineError.actuator, HapticEngineError.actuatorFault: error
        default: HapticEngineError.actuator(failing.map(\.name).joined(separator: ", "), error)
        }
        let ending = activePlayers.values.filter { $0.channels.contains { names.contains($0.name) } }.sorted { $0.id < $1.id }
        for player in ending {
            // Leaving a working actuator stops it or writes the mix without this player; a failure
            // there is that actuator's own fault, handled as any other once the lock is released.
            for (channel, failure) in player.endAfterFault(on: names, reporting: reported) {
                let key = channel.keys.stop
                later { [weak self] in self?.handleFault(failure, costKey: key) }
            }
        }
    }

    /// Whether `error` is, or wraps, a register access that timed out on its bus.
    private static func timedOutOnABus(_ error: any Error) -> Bool {
        switch error {
        case let error as DRV2605Error: error.timedOutBus != nil
        case HapticEngineError.actuator(_, let underlying): timedOutOnABus(underlying)
        default: false
        }
    }

    /// Power-cycles a chip after a fault (off, then wake: the driver writes its configuration
    /// again and clears latched state) and leaves it in standby. Returns whether it came back.
    private func reinitialise(_ channel: ActuatorChannel) -> Bool {
        let actuator = channel.actuator
        cancelIdleTimers(on: channel)
        do {
            record(try actuator.sleep(), on: channel, automatic: true)
            record(try actuator.wake(), on: channel, automatic: true)
        } catch {
            _ = try? actuator.sleep()
            return false
        }
        armIdleTimers(on: channel)
        return true
    }
}
