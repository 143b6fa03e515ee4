import ActuatorHAL

/// What happens when a player's command comes due: the mix, mode switches, triggers and the end.
extension HapticEngine {
    /// Schedules a command of a player's plan, issued at `instant`: `target` runs it by `entry`,
    /// so scheduling it allocates nothing.
    func schedulePlanned(
        _ command: ActuatorCommand, on channel: ActuatorChannel, at instant: MonotonicInstant, class commandClass: CommandClass,
        target: any ScheduledCommandTarget, entry: Int
    ) -> ScheduledToken {
        let (key, expected) = channel.cost(of: command)
        return enqueue(at: instant, class: commandClass, costKey: key, expectedCost: expected, action: .target(target, entry))
    }

    /// What the direct path did with a planned command (`runDirectly`).
    enum DirectRunResult {
        case ran
        /// It threw; the failure is handled once the locked section ends (`directRunFailed`).
        case failed
        /// Not due yet: it is queued, with what follows it.
        case notDue
    }

    /// The direct path (`DeadlineScheduler+Direct`), with the dispatch role held: runs one of
    /// `player`'s planned commands now when it is due, as the scheduler would have run it. A
    /// prepare for the mode a ready actuator is in does nothing and is due at once. Call under
    /// the lock.
    func runDirectly(_ planned: PlannedCommand, class commandClass: CommandClass, for player: HapticPatternPlayer) -> DirectRunResult {
        let channel = player.channels[planned.channel]
        let (key, expected) = channel.cost(of: planned.command)
        let dispatchInstant: MonotonicInstant
        if case .prepare(let mode) = planned.command, channel.actuator.powerState == .ready, channel.actuator.isPrepared(for: mode) {
            dispatchInstant = clock.now
        } else if let due = scheduler.directDispatchInstant(deadline: planned.issueAt, costKey: key, expectedCost: expected) {
            dispatchInstant = due
        } else {
            return .notDue
        }
        let failure = scheduler.runDirectly(dispatchedAt: dispatchInstant, class: commandClass, costKey: key, expectedCost: expected) {
            try perform(planned.command, on: channel, for: player, dueAt: planned.deadline)
        }
        guard let failure else { return .ran }
        directRunFailed(failure, costKey: key)
        return .failed
    }

    /// Schedules an engine action (wake, idle timers, drive checks, player control) with no bus
    /// cost of its own beyond `expectedCost`.
    @discardableResult
    func scheduleControl(
        at deadline: MonotonicInstant, key: CostKey, class commandClass: CommandClass = .control, expectedCost: Duration = .zero,
        _ action: @escaping () throws -> Void
    ) -> ScheduledToken {
        let box = UncheckedAction(action)
        return enqueue(at: deadline, class: commandClass, costKey: key, expectedCost: expectedCost, action: .closure { [weak self] in
            guard let self else { return }
            try self.locked { try box.action() }
        })
    }

    /// Carries out one of `player`'s commands on `channel`, due at `deadline`.
    func perform(_ command: ActuatorCommand, on channel: ActuatorChannel, for player: HapticPatternPlayer, dueAt deadline: MonotonicInstant) throws {
        let actuator = channel.actuator
        switch command {
        case .prepare(let mode):
            let report = try actuator.prepare(for: mode)
            record(report, on: channel, automatic: true)
            // A real transition (not a no-op) leaves the drive silent: RTP is zeroed on entry and
            // a sequence stopped.
            if report.from != report.to || report.elapsed > .zero {
                channel.mixer.written = 0
                channel.sequenceMayRun = false
            }
        case .trigger(let steps):
            guard !isMutedForHaptics, !player.isMuted else { return }
            try actuator.play(effects: steps)
            // The sequencer replaced any streamed level.
            channel.mixer.written = 0
            channel.sequenceMayRun = true
            cancelDriveCheck(on: channel)
        case .amplitude(let value):
            channel.mixer.set(player.isMuted ? 0 : value, for: player.id)
            try writeMix(on: channel)
        case .frequency(let hertz):
            do {
                try actuator.setDriveFrequency(hertz)
            } catch ActuatorError.unsupported {
                // Sharpness then only shapes amplitude on this actuator; not a fault.
            }
        case .pcm(let samples):
            guard !isMutedForHaptics, !player.isMuted else { return }
            try actuator.writePCM(samples, startingAt: deadline)
        case .stop:
            try endProgram(of: player, on: channel)
        }
    }

    /// Writes the mix to the actuator when it changed (zero while haptics are muted) and keeps the
    /// continuous-drive guard informed.
    func writeMix(on channel: ActuatorChannel) throws {
        let target = mixTarget(of: channel)
        guard target != channel.mixer.written else { return }
        try channel.actuator.setAmplitude(target)
        noteWritten(target, on: channel)
    }

    /// The level `channel` should drive: its players' mix, zero while haptics are muted.
    private func mixTarget(of channel: ActuatorChannel) -> Double {
        isMutedForHaptics ? 0 : channel.mixer.mixed
    }

    /// `target` reached the actuator: remembered, and the continuous-drive guard told.
    private func noteWritten(_ target: Double, on channel: ActuatorChannel) {
        channel.mixer.written = target
        if let check = channel.driveGuard.written(target, at: clock.now) {
            armDriveCheck(on: channel, at: check)
        } else if target == 0 {
            cancelDriveCheck(on: channel)
        }
    }

    // MARK: Starting several actuators together

    /// A trigger or amplitude due on several actuators at one deadline that one synchronizer can
    /// start with one write.
    struct Together {
        var synchronizer: any ActuatorSynchronizer
        var command: ActuatorCommand
        var channels: [ActuatorChannel]
    }

    /// Groups `commands` (one per actuator, all due at one deadline) that `synchronizers` can start
    /// together; returns the groups and the commands left to run one by one.
    func together(_ commands: [(channel: ActuatorChannel, command: ActuatorCommand)]) -> (groups: [Together], rest: [(channel: ActuatorChannel, command: ActuatorCommand)]) {
        var groups: [Together] = []
        var rest = commands
        for synchronizer in synchronizers {
            let covered = Set(synchronizer.actuatorNames)
            let candidates = rest.filter { covered.contains($0.channel.name) && Self.startsTogether($0.command) }
            for command in Set(candidates.map(\.command)) {
                let channels = candidates.filter { $0.command == command }.map(\.channel)
                guard channels.count > 1 else { continue }
                groups.append(Together(synchronizer: synchronizer, command: command, channels: channels))
                rest.removeAll { entry in entry.command == command && channels.contains { $0 === entry.channel } }
            }
        }
        return (groups, rest)
    }

    private static func startsTogether(_ command: ActuatorCommand) -> Bool {
        switch command {
        case .trigger, .amplitude: true
        default: false
        }
    }

    /// Schedules `group` for `player` to take effect at `deadline`, as one action; a trigger
    /// that may not be dropped (`mayDrop` false: a player's opening) runs however late.
    func schedule(_ group: Together, at deadline: MonotonicInstant, for player: HapticPatternPlayer, entry: Int, mayDrop: Bool = true) -> ScheduledToken {
        let names = group.channels.map(\.name)
        let commandClass: CommandClass
        let key: CostKey
        let expected: Duration
        switch group.command {
        case .trigger(let steps):
            commandClass = mayDrop ? .transient : .control
            key = CostKey("together-trigger\(steps.count)", actuators: names)
            expected = group.synchronizer.startCost(effects: steps.count, actuators: names.count)
        default:
            key = CostKey("together-amplitude", actuators: names)
            commandClass = .stream(StreamID("\(key)/\(player.id)"))
            expected = group.synchronizer.startCost(effects: 0, actuators: names.count)
        }
        // Run under the engine's lock only, like every action (`UncheckedAction`).
        let action = UncheckedAction { [weak self, weak player] in
            guard let self, let player, player.fired(entry) else { return }
            try self.perform(group, for: player)
        }
        return enqueue(at: deadline, class: commandClass, costKey: key, expectedCost: expected, action: .closure { [weak self] in
            try self?.locked { try action.action() }
        })
    }

    private func perform(_ group: Together, for player: HapticPatternPlayer) throws {
        let names = group.channels.map(\.name)
        switch group.command {
        case .trigger(let steps):
            guard !isMutedForHaptics, !player.isMuted else { return }
            try group.synchronizer.play(effects: steps, on: names)
            for channel in group.channels {
                channel.mixer.written = 0
                channel.sequenceMayRun = true
                cancelDriveCheck(on: channel)
            }
        case .amplitude(let value):
            for channel in group.channels { channel.mixer.set(player.isMuted ? 0 : value, for: player.id) }
            let targets = group.channels.map(mixTarget(of:))
            if let target = targets.first, targets.allSatisfy({ $0 == target }) {
                guard group.channels.contains(where: { $0.mixer.written != target }) else { return }
                try group.synchronizer.setAmplitude(target, on: names)
                for channel in group.channels { noteWritten(target, on: channel) }
            } else {
                // Other players mix differently into each: each gets its own level.
                for channel in group.channels { try writeMix(on: channel) }
            }
        default:
            break
        }
    }

    /// `writeMix` for a caller that cannot throw (a property setter): a failure goes to the fault
    /// handling once the lock is released, as a failed scheduled action's would.
    func writeMixReportingFaults(on channel: ActuatorChannel) {
        do {
            try writeMix(on: channel)
        } catch {
            let key = channel.costKey("mix")
            later { [weak self] in self?.handleFault(error, costKey: key) }
        }
    }

    /// Takes `player` off `channel`: its level leaves the mix; the last player out stops the
    /// actuator and arms the idle timers. With `standby` (an explicit stop or cancel, a forced
    /// stop) the idle actuator goes to standby at once instead of after the standby timeout.
    func release(_ player: HapticPatternPlayer, from channel: ActuatorChannel, standby: Bool = false) throws {
        channel.mixer.remove(player.id)
        channel.activePlayers.remove(player.id)
        if channel.activePlayers.isEmpty {
            channel.mixer.reset()
            cancelDriveCheck(on: channel)
            cancelStatusPoll(on: channel)
            channel.sequenceMayRun = false
            // A standby stops the output itself (`Actuator.standby`): stopping first wrote the
            // stop twice (GO and RTP_INPUT on a DRV2605), two bus writes before the standby's.
            if standby {
                record(try channel.actuator.standby(), on: channel, automatic: true)
            } else {
                try channel.actuator.stop()
            }
            armIdleTimers(on: channel)
        } else {
            try writeMix(on: channel)
        }
    }

    /// Marks `player` as using `channel` from now on: the actuator is no longer idle. Arm its
    /// status poll too (`armStatusPoll`) — a start does once its opening has run, so that
    /// queueing the poll does not come before the first write.
    func claim(_ channel: ActuatorChannel, for player: HapticPatternPlayer) {
        channel.activePlayers.insert(player.id)
        activePlayers[player.id] = player
        cancelIdleTimers(on: channel)
    }

    /// A player finished (ended, stopped or cancelled): when it was the last, tell the application.
    func playerFinished(_ player: HapticPatternPlayer) {
        guard activePlayers.removeValue(forKey: player.id) != nil, activePlayers.isEmpty else { return }
        guard let notify = notifyWhenPlayersFinished else { return }
        later { [weak self] in
            guard notify(nil) == .stopEngine, let self else { return }
            let stopped = self.locked { () -> Bool in
                guard self.isRunningUnlocked else { return false }
                self.setRunning(false)
                _ = self.haltEverything()
                return true
            }
            if stopped { self.stoppedHandler?(.notifyWhenFinished) }
        }
    }

    // MARK: Continuous-drive limit

    private func armDriveCheck(on channel: ActuatorChannel, at deadline: MonotonicInstant) {
        if let token = channel.driveGuard.checkToken { scheduler.cancel(token) }
        channel.driveGuard.checkToken = scheduleControl(at: deadline, key: channel.keys.driveLimit, class: .housekeeping) { [weak self, weak channel] in
            guard let self, let channel else { return }
            try self.enforceDriveLimit(on: channel)
        }
    }

    private func cancelDriveCheck(on channel: ActuatorChannel) {
        if let token = channel.driveGuard.checkToken { scheduler.cancel(token) }
        channel.driveGuard.checkToken = nil
        channel.driveGuard.reset()
    }

    /// The drive ran its full limit: stop it, and stop the players driving this actuator.
    private func enforceDriveLimit(on channel: ActuatorChannel) throws {
        channel.driveGuard.checkToken = nil
        guard let start = channel.driveGuard.driveStart, let limit = channel.driveGuard.limit else { return }
        let event = DriveLimitEvent(actuator: channel.name, driveStart: start, stoppedAt: clock.now, limit: limit)
        recordDriveLimit(event)
        // Stopping the players releases the actuator: the last one out stops it.
        for player in channel.activePlayers.compactMap({ activePlayers[$0] }) {
            try player.stopNow(reporting: HapticEngineError.continuousDriveLimit(event))
        }
        try channel.actuator.stop()
        channel.mixer.reset()
        channel.driveGuard.reset()
    }
}

/// A closure the scheduler may call from its thread; only ever run under the engine's lock.
struct UncheckedAction: @unchecked Sendable {
    let action: () throws -> Void
    init(_ action: @escaping () throws -> Void) { self.action = action }
}
