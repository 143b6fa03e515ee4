import ActuatorHAL

extension HapticPattern {
    /// A pattern of one transient whose ROM cue is DRV2605 effect `id` (1–123): chips with a
    /// library play the effect itself, other actuators the transient. The cue lasts as long as the
    /// effect's estimated length (TI publishes no durations; see `DRV2605ROMEffect`), at least the
    /// compiler's default, so the player's final stop does not cut a long buzz short.
    /// - Returns: nil for an id the libraries do not define.
    public init?(playingROMEffect id: Int) {
        guard let byte = UInt8(exactly: id), let effect = DRV2605ROMEffect.effect(byte) else { return nil }
        var event = HapticEvent(type: .hapticTransient, time: 0)
        let duration = max(CompilerOptions().romEffectDuration, effect.estimatedDuration.secondsValue)
        event.romCue = ROMCue(group: 0, lraSteps: [.effect(byte)], ermSteps: [.effect(byte)], duration: duration)
        self.init(events: [event])
    }
}
