import ActuatorHAL
import Logging
import SystemPackage

/// A board offered as a Linux force-feedback device: games (SDL, Steam Input, Wine), desktop
/// feedback daemons and test tools (`fftest`) upload effects to it and play them, and the
/// board's actuators play them through a `HapticEngine`.
///
/// ```swift
/// let board = try Board.named("sim-dual-grips").open(on: hardware)
/// let engine = board.makeEngine()
/// engine.scheduler.startThread()
/// try engine.start()
/// let device = try hardware.createForceFeedbackDevice(board.board.forceFeedbackSetup)
/// let provider = try ForceFeedbackProvider(device: device, engine: engine, layout: board.board.forceFeedbackLayout)
/// provider.start()        // answers requests on a thread of its own
/// …
/// provider.stop()         // effects stopped, the device removed
/// ```
///
/// Each upload is checked (`ForceFeedbackEffect.refusal(slots:)`), mapped to one pattern per
/// actuator (`ForceFeedbackPlan`, docs/force-feedback.md) and compiled while the uploader waits,
/// so a play only starts players: its commands are due at once and reach the bus on the
/// scheduler's next pass. Following the kernel's ff-memless: a play restarts an effect that
/// plays; an upload replacing a playing effect restarts it with the new parameters; a stop ends
/// it; an erase stops and forgets it; the gain rescales everything, playing effects included.
///
/// Whatever ends the provider — `stop()`, the device going away, the engine stopping on a fault —
/// every effect stops and the device is removed, so clients get ENODEV rather than silence.
public final class ForceFeedbackProvider: @unchecked Sendable {
    /// Why a provider ended on its own.
    public enum Ending: Error, CustomStringConvertible {
        /// The device went away (ENODEV), or reading it failed.
        case device(ForceFeedbackError)
        /// The engine stopped (an actuator fault); its fault, if it reported one.
        case engineStopped(HapticEngine.StoppedReason, fault: (any Error)?)

        public var description: String {
            switch self {
            case .device(let error): "the force-feedback device failed: \(error)"
            case .engineStopped(let reason, let fault?): "the engine stopped (\(reason)): \(fault)"
            case .engineStopped(let reason, nil): "the engine stopped: \(reason)"
            }
        }
    }

    /// Counts of what clients asked for.
    public struct Counts: Sendable, Hashable {
        public var uploads = 0
        public var refusedUploads = 0
        public var erases = 0
        public var plays = 0
        /// Plays started by an effect's trigger button.
        public var triggeredPlays = 0
        public var stops = 0
        public var gains = 0
    }

    /// An effect's plan and player on one actuator.
    private struct Voice {
        let actuator: String
        let plan: ForceFeedbackPlan
        let player: HapticAdvancedPatternPlayer
    }

    /// One effect slot: the effect, its plan and compiled player on each actuator, and the play
    /// in force.
    private final class Slot {
        var effect: ForceFeedbackEffect
        /// In the layout's order. An array, not a dictionary by actuator: a play walks it, and a
        /// restart finds the player it replaces by comparing a name or two, where hashing each
        /// name was a tenth of an `EV_FF` play's instructions before its first write.
        var voices: [Voice] = []
        /// When the current play started (as if from the beginning) and its repeat count.
        var play: (start: MonotonicInstant, count: Int32)?
        /// When its trigger button last started it (`trigger.interval` counts from there).
        var triggered: MonotonicInstant?
        /// The gain `voices` were planned at. A new gain plans the playing slots again at once,
        /// the others when they are next played (`ForceFeedbackProvider.rescale(_:)`).
        var plannedGain: UInt16

        init(effect: ForceFeedbackEffect, plannedGain: UInt16) {
            self.effect = effect
            self.plannedGain = plannedGain
        }

        /// Whether its play is in force at `now`, as ff-memless counts it: from the play to the end
        /// of its repetitions (never, for an endless effect), whatever drives meanwhile. A force
        /// of 0 plays too, and an upload replacing it gives it its new force: ffcfstress starts
        /// its constant force at 0 and only updates it from then on.
        func isInForce(at now: MonotonicInstant) -> Bool {
            guard let play else { return false }
            guard effect.length > 0 else { return true }
            let total = Double(Int(effect.delay) + Int(effect.length)) / 1000 * Double(play.count)
            return total >= ForceFeedbackProvider.longestRepeatedPlay || now < play.start + .seconds(total)
        }

        var plans: [String: ForceFeedbackPlan] { Dictionary(uniqueKeysWithValues: voices.map { ($0.actuator, $0.plan) }) }
    }

    public let device: any ForceFeedbackDevice
    public let engine: HapticEngine
    public let layout: ForceFeedbackLayout
    /// Called once when the provider ended on its own (not after `stop()`), on the thread that
    /// saw it.
    public var endedHandler: (@Sendable (Ending) -> Void)?
    /// The last upload refused and why, for diagnostics.
    public var lastRefusal: String? { engine.locked { refusal } }
    private var refusal: String?

    private var slots: [Int: Slot] = [:]
    private var gainValue = ForceFeedbackCode.fullGain
    private var counted = Counts()
    private let lifecycle = ConditionLock()
    private var reading = false
    private var readerThread: PlatformThread?
    private var ended = false
    private var logger = Logger(label: "hapticboard.force-feedback")

    /// Repetitions longer than this in total play as endless (a count of INT_MAX means "until stopped").
    static let longestRepeatedPlay = 86_400.0

    /// A provider answering `device` with `engine`'s actuators as `layout` assigns them.
    /// - Throws: `HapticEngineError.unknownActuator` when the layout names an actuator the engine lacks.
    public init(device: any ForceFeedbackDevice, engine: HapticEngine, layout: ForceFeedbackLayout) throws {
        for name in layout.actuators where !engine.actuatorNames.contains(name) {
            throw HapticEngineError.unknownActuator(name, known: engine.actuatorNames)
        }
        self.device = device
        self.engine = engine
        self.layout = layout
        let previous = engine.driveLimitHandler
        engine.driveLimitHandler = { [weak self] cut in
            previous?(cut)
            self?.endEffects(cutBy: cut)
        }
    }

    /// The gain in force, 0…0xFFFF.
    public var gain: UInt16 { engine.locked { gainValue } }
    /// What clients asked for so far.
    public var counts: Counts { engine.locked { counted } }
    /// The effects held, by slot.
    public var effects: [Int: ForceFeedbackEffect] { engine.locked { slots.mapValues(\.effect) } }
    /// The slots whose effect plays now: played, and not yet through its repetitions (ff-memless's
    /// "started") nor cut by the continuous-drive guard, whether or not it drives.
    public var playingSlots: Set<Int> {
        engine.locked {
            let now = engine.clock.now
            return Set(slots.filter { isPlaying($0.value, at: now) }.keys)
        }
    }
    /// The pattern each actuator plays for the effect in `slot`, at the gain in force.
    public func plans(ofSlot slot: Int) -> [String: ForceFeedbackPlan] {
        if let stored = engine.locked({ slots[slot] }) { rescale(stored) }
        return engine.locked { slots[slot]?.plans ?? [:] }
    }

    // MARK: Running

    /// Answers requests on a thread of its own until `stop()` or the device goes away; stops
    /// with the engine. `threadSetup` readies that thread (`RealtimeThread.inputReader`: real-time
    /// priority just below the timing thread's, so a game's play is read at once under load).
    /// - Throws: `PlatformThreadError` when the system refuses a thread; nothing is answered then.
    public func start(threadSetup: (any TimingThreadSetup)? = nil) throws(PlatformThreadError) {
        let previous = engine.stoppedHandler
        engine.stoppedHandler = { [weak self] reason in
            previous?(reason)
            guard let self else { return }
            self.end(.engineStopped(reason, fault: self.engine.lastFault))
        }
        // Held until `readerThread` is set: the thread's first look at `ended` waits for it.
        lifecycle.lock()
        reading = true
        do {
            readerThread = try PlatformThread.start(name: "hapticboard-ff") { [self] in
                _ = threadSetup?.configureCurrentThread()
                readRequests()
            }
            lifecycle.unlock()
        } catch {
            reading = false
            lifecycle.unlock()
            engine.stoppedHandler = previous
            throw error
        }
    }

    /// Stops answering, stops every effect and removes the device. Safe from any thread (a
    /// signal handler's thread included) and more than once.
    public func stop() {
        lifecycle.withLock { ended = true }
        finish()
    }

    /// Answers every request waiting now, without blocking: for tests and for callers that read
    /// the device themselves. Returns how many were answered.
    @discardableResult
    public func serviceRequests() throws(ForceFeedbackError) -> Int {
        var count = 0
        while let request = try device.nextRequest(timeout: .zero) {
            try respond(to: request)
            count += 1
        }
        return count
    }

    private func readRequests() {
        defer {
            lifecycle.withLock {
                reading = false
                lifecycle.broadcast()
            }
        }
        while !lifecycle.withLock({ ended }) {
            do {
                guard let request = try device.nextRequest(timeout: nil) else { continue }
                try respond(to: request)
            } catch {
                // Unblocks finish(), which waits for this thread.
                lifecycle.withLock {
                    reading = false
                    lifecycle.broadcast()
                }
                end(.device(error))
                return
            }
        }
    }

    /// Ends on its own: once, with the handler told why.
    private func end(_ ending: Ending) {
        let first = lifecycle.withLock { () -> Bool in
            defer { ended = true }
            return !ended
        }
        guard first else { return }
        logger.error("\(ending)")
        finish()
        endedHandler?(ending)
    }

    private func finish() {
        device.interrupt()
        lifecycle.withLock {
            // The reading thread may be the caller (a failure it met): then it is already out.
            while reading, PlatformThread.current != readerThread { lifecycle.wait() }
        }
        stopEverything()
        device.close()
    }

    /// Every effect stopped and forgotten; actuators are left to the engine's idle timeouts.
    private func stopEverything() {
        engine.locked {
            for slot in slots.values { silence(slot) }
            slots = [:]
        }
    }

    // MARK: Requests

    /// Answers `request`: uploads and erases get their result back to the client.
    func respond(to request: ForceFeedbackRequest) throws(ForceFeedbackError) {
        switch request {
        case .upload(let upload):
            try device.complete(upload, result: store(upload.effect))
        case .erase(let erase):
            engine.locked {
                counted.erases += 1
                if let slot = slots.removeValue(forKey: erase.effectID) { silence(slot) }
            }
            try device.complete(erase, result: nil)
        case .play(let id, let count):
            // A slot left at an old gain (`setGain`) is compiled at the one in force first; one
            // look under the lock on the play's path when it is not.
            if count > 0, let stale = engine.locked({ slots[id].flatMap { $0.plannedGain == gainValue ? nil : $0 } }) { rescale(stale) }
            engine.locked {
                guard let slot = slots[id] else { return }
                if count > 0 {
                    counted.plays += 1
                    play(slot, count: count)
                } else {
                    counted.stops += 1
                    silence(slot)
                }
            }
        case .gain(let gain):
            engine.locked { counted.gains += 1 }
            setGain(gain)
        case .autocenter:
            break
        }
    }

    /// Stores an uploaded effect, or says why not (the errno its uploader gets).
    ///
    /// The effect is planned and compiled outside the engine's lock (`HapticEngine.compileAhead`):
    /// the timing thread runs every actuator's commands under it. Planning reads only the effect
    /// and the gain, which changes on this thread alone; the slot is stored under the lock.
    private func store(_ effect: ForceFeedbackEffect) -> Errno? {
        let refused: Errno? = engine.locked {
            counted.uploads += 1
            guard let (errno, reason) = effect.refusal(slots: device.setup.capabilities.effectSlots) else {
                if effect.triggerButton != 0, !device.setup.keys.contains(effect.triggerButton) {
                    logger.info("effect \(effect.id): trigger button \(effect.triggerButton) is not a key of this device; it plays by EV_FF only")
                }
                return nil
            }
            counted.refusedUploads += 1
            refusal = "upload to slot \(effect.id): \(reason) (\(errno))"
            logger.info("\(refusal ?? "")")
            return errno
        }
        if let refused { return refused }
        let slot = Slot(effect: effect, plannedGain: gainValue)
        do {
            slot.voices = try planned(effect, gain: slot.plannedGain)
        } catch {
            return engine.locked {
                counted.refusedUploads += 1
                refusal = "upload to slot \(effect.id): \(error)"
                return .ioError
            }
        }
        return engine.locked {
            let replaced = slots[Int(effect.id)]
            slots[Int(effect.id)] = slot
            // ff-memless restarts a playing effect with its new parameters.
            if let replaced, let play = replaced.play, isPlaying(replaced, at: engine.clock.now) {
                slot.play = (engine.clock.now, play.count)
                start(slot, count: play.count, offset: 0, replacing: replaced.voices)
            } else if let replaced {
                silence(replaced)
            }
            return nil
        }
    }

    /// `effect` planned at `gain`, with a player compiled for each actuator's plan.
    private func planned(_ effect: ForceFeedbackEffect, gain: UInt16) throws -> [Voice] {
        let capabilities = engine.capabilities
        var rates: [String: Double] = [:]
        for name in layout.actuators {
            if let capability = capabilities[name] { rates[name] = PatternCompiler(capabilities: capability, options: engine.compilerOptions).updateRate }
        }
        let plans = ForceFeedbackPlan.plans(for: effect, layout: layout, gain: Double(gain) / 0xFFFF, capabilities: capabilities, updateRates: rates)
        return try layout.actuators.compactMap { name in
            guard let plan = plans[name] else { return nil }
            return Voice(actuator: name, plan: plan, player: try engine.makeAdvancedPlayer(with: plan.pattern, on: name))
        }
    }

    /// A key of the device went down (a board button with a `key:`): every effect whose
    /// `trigger.button` it is plays once, as a game's play would start it, unless its
    /// `trigger.interval` has not passed since that button last started it. The kernel's ff-core
    /// leaves triggers to the device; hapticboard's device has the buttons, so it plays them.
    /// A code that is not one of the device's keys starts nothing.
    public func keyPressed(_ code: UInt16) {
        guard code != 0, device.setup.keys.contains(code) else { return }
        for slot in engine.locked({ slots.values.filter { $0.effect.triggerButton == code } }) { rescale(slot) }
        engine.locked {
            let now = engine.clock.now
            for slot in slots.values where slot.effect.triggerButton == code {
                if let last = slot.triggered, now - last < .milliseconds(Int64(slot.effect.triggerInterval)) { continue }
                slot.triggered = now
                counted.triggeredPlays += 1
                play(slot, count: 1)
            }
        }
    }

    /// Whether `slot` plays at `now` (`Slot.isInForce(at:)`), unless the engine's continuous-drive
    /// guard cut one of its actuators since its play began: a cut lasts until the client plays
    /// the effect again, so a stream of updates cannot keep an actuator driving past its limit.
    private func isPlaying(_ slot: Slot, at now: MonotonicInstant) -> Bool {
        guard slot.isInForce(at: now), let start = slot.play?.start else { return false }
        return !engine.driveLimitEvents.contains { cut in cut.stoppedAt >= start && slot.voices.contains { $0.actuator == cut.actuator } }
    }

    /// The guard cut `cut.actuator`: every effect it cut there is over on each of its actuators
    /// (`isPlaying` counts it out), so its other parts stop too. One left driving another
    /// actuator would play on unseen by `FF_GAIN`, which rescales only the effects that play.
    private func endEffects(cutBy cut: DriveLimitEvent) {
        engine.locked {
            for slot in slots.values where slot.play.map({ $0.start <= cut.stoppedAt }) ?? false {
                guard slot.voices.contains(where: { $0.actuator == cut.actuator }) else { continue }
                for voice in slot.voices where voice.actuator != cut.actuator {
                    do {
                        try engine.end(voice.player)
                    } catch {
                        logger.warning("stopping effect \(slot.effect.id) on \(voice.actuator) after the cut on \(cut.actuator): \(error)")
                    }
                }
            }
        }
    }

    private func play(_ slot: Slot, count: Int32) {
        slot.play = (engine.clock.now, count)
        start(slot, count: count, offset: 0, replacing: slot.voices)
    }

    /// Starts the slot's players now from `offset`, each in place of `replacing`'s player on its
    /// actuator, for `count` repetitions.
    private func start(_ slot: Slot, count: Int32, offset: Double, replacing: [Voice]) {
        let now = engine.clock.now
        // The voices as they are now (one reference to the array), each voice's fields read in
        // place: a copy of a voice (its plan holds the effect's pattern) retained and released
        // every array of the pattern on an `EV_FF` play's path.
        let voices = slot.voices
        for index in voices.indices {
            let (name, player) = (voices[index].actuator, voices[index].player)
            var stopAfter: Double?
            if let loop = voices[index].plan.loop {
                player.loopEnabled = true
                player.loopEnd = loop.upperBound
                player.loopStartValue = loop.lowerBound
            } else if let repetition = voices[index].plan.repetition, count > 1, repetition > 0 {
                let total = repetition * Double(count)
                player.loopEnabled = true
                player.loopEnd = repetition
                if total < Self.longestRepeatedPlay { stopAfter = total - offset }
            } else {
                player.loopEnabled = false
            }
            do {
                try engine.start(player, at: now, from: offset, replacing: replacing.first { $0.actuator == name }?.player)
                if let stopAfter { try player.stop(atTime: (now + .seconds(stopAfter)).seconds) }
            } catch {
                // The engine reports actuator failures itself (and stops); nothing reaches the client.
                logger.warning("playing effect \(slot.effect.id) on \(name): \(error)")
            }
        }
    }

    /// Stops the slot's players at once, the actuators left to their idle timeouts.
    private func silence(_ slot: Slot) {
        slot.play = nil
        for voice in slot.voices {
            do {
                try engine.end(voice.player)
            } catch {
                logger.warning("stopping effect \(slot.effect.id) on \(voice.actuator): \(error)")
            }
        }
    }

    /// Rescales every effect. The playing ones are planned again at once and continue from where
    /// they are at the new strength; the others are planned again when next played. Compiling
    /// every stored effect at the gain held up the next play by as many compiles (a game may hold
    /// 16 long effects), and compiling them while idle was no better: on the reading thread's
    /// real-time priority that work kept the game's own thread off its CPU, play unwritten.
    private func setGain(_ gain: UInt16) {
        guard gain != gainValue else { return }
        let playing = engine.locked {
            gainValue = gain
            let now = engine.clock.now
            return slots.values.filter { isPlaying($0, at: now) }
        }
        for slot in playing { rescale(slot) }
    }

    /// Plans `slot` again at the gain in force if it was planned at another: compiled outside the
    /// engine's lock, as `store` does, then swapped in under it, where a playing slot continues
    /// from where it is. Callable from any thread: a plan is kept only if the slot is still
    /// stored and the gain it was made at is still in force.
    private func rescale(_ slot: Slot) {
        let gain = engine.locked { slot.plannedGain == gainValue ? nil : gainValue }
        guard let gain else { return }
        let rescaled: [Voice]
        do {
            rescaled = try planned(slot.effect, gain: gain)
        } catch {
            logger.warning("rescaling effect \(slot.effect.id): \(error)")
            return
        }
        engine.locked {
            guard gain == gainValue, slot.plannedGain != gain, slots[Int(slot.effect.id)] === slot else { return }
            let old = slot.voices
            let now = engine.clock.now
            let wasPlaying = isPlaying(slot, at: now)
            slot.voices = rescaled
            slot.plannedGain = gain
            guard wasPlaying, let play = slot.play else { return }
            let (offset, remaining) = position(of: slot, startedAt: play.start, count: play.count, at: now)
            slot.play = (now - .seconds(offset), remaining)
            start(slot, count: remaining, offset: offset, replacing: old)
        }
    }

    /// Where a slot's play started at `start` stands at `now`: the offset in its pattern and the
    /// repetitions left, counting the current one.
    private func position(of slot: Slot, startedAt start: MonotonicInstant, count: Int32, at now: MonotonicInstant) -> (Double, Int32) {
        let elapsed = max(0, (now - start).secondsValue)
        guard let plan = slot.voices.first?.plan else { return (elapsed, count) }
        if let loop = plan.loop {
            guard elapsed >= loop.lowerBound else { return (elapsed, count) }
            let length = loop.upperBound - loop.lowerBound
            return (loop.lowerBound + (elapsed - loop.lowerBound).truncatingRemainder(dividingBy: length), count)
        }
        guard let repetition = plan.repetition, repetition > 0 else { return (elapsed, count) }
        let done = min(Double(count - 1), (elapsed / repetition).rounded(.down))
        return (elapsed - done * repetition, count - Int32(done))
    }
}
