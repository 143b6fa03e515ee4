import ActuatorHAL

/// Watching the hardware while it plays: faults the chip reports and ROM sequences that outlast
/// their estimate.
///
/// - While an actuator has players, its status is read every `EngineActuator.statusPollInterval`
///   (DRV2605: STATUS with MODE in one read, then GO; in standby a configuration register too).
///   OVER_TEMP or OC_DETECT — the output stage shut itself down — or registers back at their
///   reset values — the chip was reset behind the driver's back — is a fault:
///   `HapticEngineError.actuatorFault` goes to the
///   engine's fault handling, which stops every player, leaves every actuator stopped and in
///   standby, power-cycles and re-initialises the chip and reports it (`lastFault`, `stoppedHandler`).
/// - A program's end after a ROM trigger waits for the chip: effect lengths are only estimated
///   when compiling (TI publishes none), so GO is polled every `sequencePollInterval` until it
///   clears, for at most `sequencePlayOutLimit`, and only then is the actuator released. Those
///   reads are status reads too, and a fault they see is handled as a poll's: for a click shorter
///   than the poll interval they are the only look at the chip while it plays.
extension HapticEngine {
    /// How often GO is read while a ROM sequence plays out past its program's end.
    public static let sequencePollInterval = Duration.milliseconds(10)
    /// The longest a sequence may play past its program's end before it is stopped: eight of the
    /// library's longest effects (1 s alerts) with the longest waits between them fit.
    public static let sequencePlayOutLimit = Duration.seconds(10)

    /// Starts reading `channel`'s status at its poll interval while it has players (no-op when
    /// polling is off or already running).
    func armStatusPoll(on channel: ActuatorChannel) {
        guard let interval = channel.statusPollInterval, channel.statusPollToken == nil else { return }
        channel.statusPollToken = scheduleControl(at: clock.now + interval, key: channel.keys.status, class: .housekeeping, expectedCost: channel.statusReadCost) { [weak self, weak channel] in
            guard let self, let channel else { return }
            channel.statusPollToken = nil
            self.monitoringActions += 1
            guard !channel.activePlayers.isEmpty else { return }
            // Not powered yet (content ahead wakes it): nothing to read until it is.
            if channel.actuator.powerState != .off {
                try Self.failOnShutdown(in: try channel.actuator.status(), of: channel)
            }
            self.armStatusPoll(on: channel)
        }
    }

    /// Throws `actuatorFault` when `status` says the output stage shut itself down (OVER_TEMP,
    /// OC_DETECT) or the chip was reset: the engine's fault handling then stops, power-cycles and
    /// reports, whichever read saw it.
    private static func failOnShutdown(in status: ActuatorStatus, of channel: ActuatorChannel) throws {
        let shutdown = status.faults.intersection([.overTemperature, .overCurrent, .registersReset])
        guard shutdown.isEmpty else { throw HapticEngineError.actuatorFault(channel.name, shutdown) }
    }

    func cancelStatusPoll(on channel: ActuatorChannel) {
        if let token = channel.statusPollToken { scheduler.cancel(token) }
        channel.statusPollToken = nil
    }

    /// `player`'s program on `channel` reached its `.stop`: a ROM sequence still running plays
    /// out first (polled from `since`, the first look), then the player leaves the actuator.
    func endProgram(of player: HapticPatternPlayer, on channel: ActuatorChannel, since: MonotonicInstant? = nil) throws {
        let firstLook = since ?? clock.now
        if channel.sequenceMayRun {
            if since != nil { monitoringActions += 1 }
            if clock.now - firstLook < Self.sequencePlayOutLimit {
                // The chip reports each fault once (reading STATUS clears it), and for an effect
                // shorter than the poll interval this is the only read while it plays.
                let status = try channel.actuator.status()
                try Self.failOnShutdown(in: status, of: channel)
                if status.isPlaying {
                    player.scheduleFollowUp(at: clock.now + Self.sequencePollInterval, key: channel.keys.sequenceEnd) { [weak self] player in
                        try self?.endProgram(of: player, on: channel, since: firstLook)
                    }
                    return
                }
            }
            channel.sequenceMayRun = false
        }
        try release(player, from: channel)
        player.channelEnded(channel.name)
    }
}
