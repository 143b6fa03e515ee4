import ActuatorHAL

extension HapticEngine {
    /// Starts `player` at `instant` in place of `replaced` (which may be `player` itself, restarting
    /// it) on the same actuators, without the gap a stop then a start would leave: `replaced`'s
    /// commands are dropped and its level leaves the mix as `player`'s level at its start enters
    /// it, so an actuator that keeps driving gets one write of the new level (none when equal),
    /// and one left with nothing to play is stopped and goes idle as when a player ends. How
    /// force feedback replaces an effect while it plays, and restarts one on every play.
    /// `offset` is where in its pattern `player` starts.
    func start(_ player: HapticPatternPlayer, at instant: MonotonicInstant, from offset: Double = 0, replacing replaced: HapticPatternPlayer?) throws {
        try locked {
            try requireRunning()
            let driven = replaced.map { old in old.channels.filter { $0.activePlayers.contains(old.id) } } ?? []
            replaced?.halt()
            if offset > 0 { try player.seek(toOffset: offset) }
            try player.start(at: instant)
            if let replaced, replaced !== player { playerFinished(replaced) }
            for channel in driven {
                guard !channel.activePlayers.isEmpty else {
                    // Nothing plays on it any more: stopped and idle, as when the last player ends.
                    try release(player, from: channel)
                    continue
                }
                // The actuator is driving in the mode the new player prepares: its first level can
                // replace the old one at once, instead of a zero first.
                if instant <= clock.now, channel.actuator.powerState == .ready, channel.activePlayers.contains(player.id) {
                    channel.mixer.set(player.level(at: offset, on: channel), for: player.id)
                }
                try writeMix(on: channel)
            }
        }
    }
}

extension HapticPatternPlayer {
    /// The amplitude this player's program on `channel` holds at pattern time `offset`.
    func level(at offset: Double, on channel: ActuatorChannel) -> Double {
        guard let program = programs[channel.name] else { return 0 }
        var level = 0.0
        for timed in program.commands where timed.time <= offset + 1e-9 {
            if case .amplitude(let value) = timed.command { level = value }
        }
        return level
    }
}

extension HapticEngine {
    /// Stops `player` at once as if its pattern had ended there: its commands are dropped, its
    /// level leaves the mix, and an actuator nothing else plays on is stopped and goes idle by its
    /// timeouts — where `HapticPatternPlayer.stop` would put it in standby at once, costing the
    /// next effect a prepare.
    func end(_ player: HapticPatternPlayer) throws {
        try locked {
            let driven = player.channels.filter { $0.activePlayers.contains(player.id) }
            player.halt()
            playerFinished(player)
            for channel in driven { try release(player, from: channel) }
        }
    }
}
