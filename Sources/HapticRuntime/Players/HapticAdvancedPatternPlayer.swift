/// A player with Core Haptics' advanced controls: looping, playback rate, pause/resume, seek and a
/// completion handler. Made by `HapticEngine.makeAdvancedPlayer(with:on:)`.
public final class HapticAdvancedPatternPlayer: HapticPatternPlayer, @unchecked Sendable {
    /// Repeat from the start at `loopEnd`; takes effect at the next start, resume or seek.
    public var loopEnabled: Bool {
        get { engine.locked { loopEnabledValue } }
        set { engine.locked { loopEnabledValue = newValue } }
    }

    /// Pattern time where a loop restarts; 0 = the pattern's real end.
    public var loopEnd: Double {
        get { engine.locked { loopEndValue } }
        set { engine.locked { loopEndValue = newValue.isFinite ? max(0, newValue) : 0 } }
    }

    /// Speed factor (> 0) scaling every time and duration; a change applies at once from the
    /// current position. Invalid values are ignored (see `setPlaybackRate` to get the error); an
    /// actuator that fails while the player restarts at the new rate is a fault the engine stops
    /// on and reports (`HapticEngine.lastFault`).
    public var playbackRate: Double {
        get { engine.locked { rateValue } }
        set {
            do {
                try setPlaybackRate(newValue)
            } catch HapticEngineError.invalidPlaybackRate {
                // Ignored, as Core Haptics ignores an out-of-range rate.
            } catch {
                engine.handleFault(error, costKey: CostKey("player-rate", actuators: channels.map(\.name)))
            }
        }
    }

    /// Sets the playback rate, throwing for a value that is not a positive number.
    public func setPlaybackRate(_ rate: Double) throws {
        guard rate.isFinite, rate > 0 else { throw HapticEngineError.invalidPlaybackRate(rate) }
        try engine.locked {
            rateValue = rate
            try rateChanged()
        }
    }

    /// Called when playback ends or is stopped (nil) or was cut by the engine (the error); not after `cancel`.
    public var completionHandler: (@Sendable ((any Error)?) -> Void)? {
        get { engine.locked { completion } }
        set { engine.locked { completion = newValue } }
    }

    /// Pauses at `time` (0 = now).
    public override func pause(atTime time: Double) throws {
        try super.pause(atTime: time)
    }

    /// Resumes from the paused position at `time` (0 = as soon as possible).
    public override func resume(atTime time: Double) throws {
        try super.resume(atTime: time)
    }

    /// Moves to `offset` seconds into the pattern.
    public override func seek(toOffset offset: Double) throws {
        try super.seek(toOffset: offset)
    }
}
