import ActuatorHAL

/// Piano's API on a haptic engine: play a list of notes, cancel, and wake / prepare / sleep the
/// actuators by hand.
///
/// Unlike Piano's own implementation (one-shot timers on the main run loop, fixed guesses for how
/// long a note lasts), every note is a player scheduled on the engine's deadline scheduler, and
/// `.waitUntilFinished` waits for the real end of the previous note: the end of its compiled program
/// on the actuator (ROM effect playing time, braking), which is known before anything plays.
/// Actuators wake and prepare ahead of the first note automatically; the explicit calls only
/// move that cost earlier, as Piano's `wakeTapticEngine` / `prepareTapticEngine` do.
public final class HapticPiano: @unchecked Sendable {
    /// A note as scheduled: when it starts and when it really ends, in engine time.
    public struct ScheduledNote: Sendable, Hashable {
        /// The note.
        public var note: Note
        /// When it starts.
        public var start: MonotonicInstant
        /// When its compiled program ends; for a sound, when the sound file ends (equal to `start`
        /// when the engine has no sound output).
        public var end: MonotonicInstant
    }

    /// The engine notes play on.
    public let engine: HapticEngine
    /// The actuator notes play on; nil = every actuator.
    public let actuator: String?
    private var players: [HapticPatternPlayer] = []
    private var completionToken: ScheduledToken?
    private var scheduled: [ScheduledNote] = []
    /// Tags this piano's sounds on the engine's sound output, so `cancel` stops them.
    private var soundOwner: Int?

    /// A piano on `engine`, playing on the actuator named `actuator` or on all when nil.
    public init(engine: HapticEngine, actuator: String? = nil) {
        self.engine = engine
        self.actuator = actuator
    }

    /// The notes of the last `play`, with their start and real end.
    public var schedule: [ScheduledNote] { engine.locked { scheduled } }

    /// Plays `notes` (cancelling what the piano was playing), starting as soon as the actuators
    /// can play; `completion` runs once the last note has really ended. Starts the engine if needed.
    public func play(_ notes: [Note], completion: (@Sendable () -> Void)? = nil) throws {
        try engine.locked {
            try cancelUnlocked()
            if !engine.isRunningUnlocked { try engine.start() }
            var cursor = engine.earliestStart(forActuator: actuator)
            var previousEnd = cursor
            var lastEnd = cursor
            for note in notes {
                switch note {
                case .wait(let seconds):
                    cursor = cursor + .seconds(seconds.isFinite ? max(0, seconds) : 0)
                case .waitUntilFinished:
                    cursor = max(cursor, previousEnd)
                case .sound(let sound):
                    // The engine's sound output plays it; without one it ends as it starts.
                    let length = engine.playSound(sound, at: cursor, owner: &soundOwner) ?? 0
                    let end = cursor + .nanoseconds(Int64((length * 1e9).rounded()))
                    scheduled.append(ScheduledNote(note: note, start: cursor, end: end))
                    previousEnd = end
                    lastEnd = max(lastEnd, end)
                case .hapticFeedback, .tapticEngine, .vibration:
                    let player = try engine.makePlayer(with: HapticPattern(notes: [note]), on: actuator)
                    try player.start(at: cursor)
                    players.append(player)
                    let end = cursor + .seconds(player.duration)
                    scheduled.append(ScheduledNote(note: note, start: cursor, end: end))
                    previousEnd = end
                    lastEnd = max(lastEnd, end)
                }
            }
            guard let completion else { return }
            completionToken = engine.scheduleControl(at: max(lastEnd, cursor), key: CostKey("piano-completion")) { [weak self] in
                self?.completionToken = nil
                self?.engine.later(completion)
            }
        }
    }

    /// Stops the notes playing and drops those not yet played; the completion is not called.
    public func cancel() throws {
        try engine.locked { try cancelUnlocked() }
    }

    private func cancelUnlocked() throws {
        if let completionToken { engine.scheduler.cancel(completionToken) }
        completionToken = nil
        var firstError: (any Error)?
        for player in players {
            do {
                try player.cancel()
            } catch {
                firstError = firstError ?? error
            }
        }
        players = []
        scheduled = []
        if let soundOwner { engine.playerStoppedAudio(player: soundOwner) }
        if let firstError { throw firstError }
    }

    /// Powers the actuators up ahead of time (Piano's `wakeTapticEngine`): off → standby, so the
    /// first note does not pay the wake.
    public func wake() throws {
        try engine.wakeActuators()
    }

    /// Readies the actuators for playback (Piano's `prepareTapticEngine`): standby → ready in the
    /// mode notes most likely need, so the first note does not pay that either.
    public func prepare() throws {
        try engine.prepareActuators()
    }

    /// Turns the actuators off (Piano's `putTapticEngineToSleep`). Not needed for power: idle
    /// actuators go to standby and off on their own timeouts.
    public func sleep() throws {
        try engine.sleepActuators()
    }

    /// Piano's name for `wake()`.
    public func wakeTapticEngine() throws { try wake() }
    /// Piano's name for `prepare()`.
    public func prepareTapticEngine() throws { try prepare() }
    /// Piano's name for `sleep()`.
    public func putTapticEngineToSleep() throws { try sleep() }
}
