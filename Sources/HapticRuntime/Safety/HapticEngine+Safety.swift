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
            cancelIdleTimers(on: channel)
            cancelStatusPoll(on: channel)
            channel.sequenceMayRun = false
            if let token = channel.driveGuard.checkToken { scheduler.cancel(token) }
            channel.driveGuard = ContinuousDriveGuard(limit: channel.driveGuard.limit)
            channel.activePlayers = []
            channel.mixer = AmplitudeMixer(signed: channel.mixer.signed)
            if let error = makeSafe(channel) {
                firstError = firstError ?? HapticEngineError.actuator(channel.name, error)
            }
            if channel.actuator.powerState != .off { armIdleTimers(on: channel) }
        }
        return firstError
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
    /// command's cost key, which names the actuators it drove). Every player stops and every
    /// actuator is made safe; the failing chips are then power-cycled so their drivers
    /// re-initialise them. When the chip came back
    /// the engine resets as Core Haptics' does: `stoppedHandler(.systemError)`, then the engine
    /// runs again and `resetHandler` is called (players made before must be recreated). When it
    /// could not be stopped or re-initialised the engine stays stopped: `stoppedHandler(.deviceLost)`.
    ///
    /// A transfer that timed out means a stuck bus: the failing chips are switched off first,
    /// without the bus (EN low), and not re-initialised. Over that bus every stop and every
    /// configuration write would time out through its retries in turn — a tenth of a second
    /// apiece — while the output drives on, and a re-initialisation would raise EN again for
    /// nothing. They stay off until a later wake finds the bus working.
    func handleFault(_ error: any Error, costKey: CostKey) {
        let (reason, reset) = locked { () -> (StoppedReason, Bool) in
            recordFault(error)
            let failing = channels.filter { costKey.actuators.contains($0.name) }
            let busTimedOut = Self.timedOutOnABus(error)
            if busTimedOut {
                for channel in failing {
                    if let report = channel.actuator.powerOffWithoutTheBus() { record(report, on: channel, automatic: true) }
                }
            }
            setRunning(false)
            _ = haltEverything()
            guard !failing.isEmpty else { return (.systemError, false) }
            guard !busTimedOut else { return (.deviceLost, false) }
            let cameBack = failing.map(reinitialise).allSatisfy { $0 }
            return (cameBack ? .systemError : .deviceLost, cameBack)
        }
        stoppedHandler?(reason)
        guard reset else { return }
        locked { setRunning(true) }
        resetHandler?()
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
