import ActuatorHAL

/// What the internal-trigger sequencer will drive after GO: the output changes over time and when
/// GO clears, worked out once from WAV_FRM_SEQ1..8 at the moment of GO.
///
/// Model choices (documented because the datasheet leaves them open or the model simplifies):
/// - the slots are read once at GO; rewriting them during playback does not alter the running sequence;
/// - waits (bit 7 set) are exact: bits 6:0 × 10 ms of silence;
/// - effects last their `DRV2605ROMEffect.estimatedDuration`; the time-offset registers
///   ODT/SPT/SNT/BRT (0x0D–0x10) and CONTROL5's playback interval are ignored;
/// - ids the library does not define (124–127) play nothing and take no time;
/// - effects the part cannot play (the empty library, LIBRARY_SEL 0; library 7 on a DRV2605; any
///   effect on a DRV2604, whose RAM is not modelled) take their time but drive nothing.
struct DRV2605SequencePlan {
    /// Output changes, in time order, ending with silence at `end`.
    var changes: [DriveTimeline.Change]
    /// When the sequence ends and GO clears.
    var end: MonotonicInstant

    /// Ramps are recorded as this many constant steps, since a drive timeline is piecewise constant.
    static let rampSteps = 8

    init(slots: [UInt8], start: MonotonicInstant, frequency: Double?, libraryIsEmpty: Bool) {
        var time = start
        var changes: [DriveTimeline.Change] = []
        for slot in slots {
            if slot == 0 { break }
            let value = slot & DRV2605Model.Field.slotValueMask
            if slot & DRV2605Model.Field.wait != 0 {
                changes.append(.init(time: time, amplitude: 0, frequency: nil))
                time = time + .milliseconds(10 * Int(value))
                continue
            }
            guard let effect = DRV2605ROMEffect.effect(value) else { continue }
            let scale = libraryIsEmpty ? 0 : 1.0
            let steps = effect.startLevel == effect.endLevel ? 1 : Self.rampSteps
            let stepLength = Duration.nanoseconds(effect.estimatedDuration.nanoseconds / Int64(steps))
            for step in 0..<steps {
                // Each step holds the level at its midpoint, so a ramp's average matches the real ramp.
                let fraction = (Double(step) + 0.5) / Double(steps)
                let level = steps == 1 ? effect.startLevel : effect.startLevel + (effect.endLevel - effect.startLevel) * fraction
                let amplitude = level * scale
                changes.append(.init(time: time + stepLength * step, amplitude: amplitude, frequency: amplitude == 0 ? nil : frequency))
            }
            time = time + effect.estimatedDuration
        }
        changes.append(.init(time: time, amplitude: 0, frequency: nil))
        self.changes = changes
        self.end = time
    }
}
