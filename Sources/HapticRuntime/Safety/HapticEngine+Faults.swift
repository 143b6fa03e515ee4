import ActuatorHAL

/// Watching the hardware while it plays: faults the chip reports and ROM sequences that outlast
/// their estimate.
///
/// - While an actuator has players, its status is read every `EngineActuator.statusPollInterval`
///   (DRV2605: STATUS, GO, MODE and a configuration register, four reads). OVER_TEMP or OC_DETECT —
///   the output stage shut itself down — or registers back at their reset values — the chip was
///   reset behind the driver's back — is a fault: `HapticEngineError.actuatorFault` goes to the
///   engine's fault handling, which stops every player, leaves every actuator stopped and in
///   standby, power-cycles and re-initialises the chip and reports it (`lastFault`, `stoppedHandler`).
/// - A program's end after a ROM trigger waits for the chip: effect lengths are only estimated
///   when compiling (TI publishes none), so GO is polled every `sequencePollInterval` until it
///   clears, for at most `sequencePlayOutLimit`, and only then is the actuator released.
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
        channel.statusPollToken = scheduleControl(at: clock.now + interval, key: channel.keys.status, expectedCost: channel.statusReadCost) { [weak self, weak channel] in
            guard let self, let channel else { return }
            channel.statusPollToken = nil
            self.monitoringActions += 1
            guard !channel.activePlayers.isEmpty else { return }
            // Not powered yet (content ahead wakes it): nothing to read until it is.
            if channel.actuator.powerState != .off {
                let shutdown = try channel.actuator.status().faults.intersection([.overTemperature, .overCurrent, .registersReset])
                guard shutdown.isEmpty else { throw HapticEngineError.actuatorFault(channel.name, shutdown) }
            }
            self.armStatusPoll(on: channel)
        }
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
            if clock.now - firstLook < Self.sequencePlayOutLimit, try channel.actuator.status().isPlaying {
                player.scheduleFollowUp(at: clock.now + Self.sequencePollInterval, key: channel.keys.sequenceEnd) { [weak self] player in
                    try self?.endProgram(of: player, on: channel, since: firstLook)
                }
                return
            }
            channel.sequenceMayRun = false
        }
        try release(player, from: channel)
        player.channelEnded(channel.name)
    }
}
