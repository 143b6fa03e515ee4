import ActuatorHAL
import ActuatorHALLinux
import Foundation
import HapticRuntime

/// Plays patterns on one board actuator through `HapticEngine` and its `DeadlineScheduler`, one
/// after the other (again and again with `loop`), until they end or a stop is requested.
///
/// Two paces: `.threaded` runs the scheduler's timing thread on the clock (real hardware, or the
/// sim board's virtual clock paced to the wall clock) while the calling thread waits in frame-long
/// slices; `.stepped` runs the scheduler on the calling thread with `run(until:)`, so a virtual
/// clock whose sleeps advance time plays as fast as possible (`--fast`, `render`).
final class EnginePlayback {
    enum Pace {
        case threaded
        case stepped
    }

    /// Errors the engine reports on its own, for the command's error message.
    enum Failure: Error, CustomStringConvertible {
        /// Why, and the fault behind it (a bus error, a fault the chip reported) when there is one.
        case engineStopped(HapticEngine.StoppedReason, fault: (any Error)?)

        var description: String {
            switch self {
            case .engineStopped(let reason, let fault?): "the engine stopped (\(reason)): \(fault)"
            case .engineStopped(let reason, nil): "the engine stopped: \(reason)"
            }
        }
    }

    let engine: HapticEngine
    let scheduler: DeadlineScheduler
    let clock: any MonotonicClock
    let pace: Pace
    /// The actuator every player plays on; nil plays on every actuator of the engine.
    let actuatorName: String?
    /// Actions the command itself scheduled (live-view snapshots), counted so the summary can
    /// leave them out of the command count.
    private(set) var auxiliaryActionCount = 0
    private let finished = FinishSignal()

    /// An engine for `targets` (each pattern plays on all of them, mixed per actuator) on `clock`,
    /// with the board's idle timeouts.
    init(targets: [BoardActuator], clock: any MonotonicClock, pace: Pace, idleTimeouts: IdleTimeouts, latePolicy: LatePolicy = LatePolicy()) {
        self.clock = clock
        self.pace = pace
        actuatorName = targets.count == 1 ? targets.first?.name : nil
        scheduler = DeadlineScheduler(clock: clock, latePolicy: latePolicy)
        engine = HapticEngine(
            actuators: targets.map {
                EngineActuator($0.actuator, name: $0.name, idleTimeouts: idleTimeouts, maximumContinuousDrive: $0.maximumContinuousDrive, statusPollInterval: $0.statusPollInterval)
            },
            clock: clock,
            scheduler: scheduler,
            // One set of options for every actuator: PCM drive is rendered at the (first) PCM
            // actuator's stream rate.
            compilerOptions: targets.first { $0.pcm != nil }?.compilerOptions ?? CompilerOptions(),
            // Chips behind one switch that answer the broadcast address start together.
            synchronizers: DRV2605Broadcast.groups(of: targets.compactMap(\.drv2605))
        )
        let signal = finished
        let engine = self.engine
        engine.stoppedHandler = { [weak engine] reason in signal.finish(Failure.engineStopped(reason, fault: engine?.lastFault)) }
    }

    /// Plays `patterns` in order; the first starts at `start` on the engine clock, or as soon as
    /// the actuator can play when nil. Returns the passes started. `frame` runs on the calling
    /// thread about every `frameInterval`; `snapshot`, when given, runs just before it on the
    /// timing thread, where it cannot race the engine's bus traffic. `willPlay`, when given, runs
    /// with each pattern's index before its player is made (to point the sound output at the
    /// pattern's waveforms).
    @discardableResult
    func play(
        _ patterns: [HapticPattern], loop: Bool, rate: Double, startingAt start: MonotonicInstant? = nil,
        frameInterval: Duration, stopRequested: () -> Bool,
        snapshot: (@Sendable () -> Void)? = nil, frame: (() -> Void)? = nil, willPlay: ((Int) -> Void)? = nil
    ) throws -> Int {
        try engine.start()
        if pace == .threaded { scheduler.startThread(setup: RealtimeThread()) }
        var passes = 0
        var firstStart = start
        repeat {
            passes += 1
            for (index, pattern) in patterns.enumerated() {
                willPlay?(index)
                let player = try engine.makeAdvancedPlayer(with: pattern, on: actuatorName)
                try player.setPlaybackRate(rate)
                player.loopEnabled = loop && patterns.count == 1
                let signal = finished
                signal.reset()
                player.completionHandler = { error in signal.finish(error) }
                try player.start(atTime: firstStart.map(\.seconds) ?? 0)
                firstStart = nil
                guard try wait(frameInterval: frameInterval, stopRequested: stopRequested, snapshot: snapshot, frame: frame) else { return passes }
            }
        } while loop
        return passes
    }

    /// Starts the engine and wakes every actuator now, outside any timeline.
    func wakeActuators() throws {
        // Before `start`, which schedules the sound output's first service: a wake run after it
        // would make that action late.
        try engine.wakeActuators()
        try engine.start()
    }

    /// Starts the timing thread and waits (at most `timeout` of wall time) until it has finished
    /// its real-time set-up, so the first deadline is chosen after that start-up — locking the
    /// process's memory takes a while on a small board or an emulated one — rather than raced by it.
    func startTimingThread(timeout: Duration = .seconds(30)) {
        guard pace == .threaded else { return }
        scheduler.startThread(setup: RealtimeThread())
        let wall = SystemMonotonicClock()
        let giveUp = wall.now + timeout
        while !scheduler.isThreadReady, wall.now < giveUp {
            try? wall.sleep(until: wall.now + .milliseconds(1))
        }
    }

    /// How long after the last player ended `letSoundPlayOut` waits at most: the device's buffer
    /// plus a sound placed that late. Longer means a stalled device or timing thread; `finish` then
    /// drops the rest, and the summary shows the sound's lateness.
    static let soundPlayOutLimit = Duration.seconds(1)

    /// Waits until every sound has left the device (`HapticEngine.soundHasPlayedOut`), at most
    /// `soundPlayOutLimit`, so `finish` — which drops what the device holds — never cuts the end
    /// of the last sound. For an ending of its own: a stop request ends the wait at once.
    func letSoundPlayOut(stopRequested: () -> Bool) throws {
        guard let format = engine.audio?.output.sink.format else { return }
        let slice = format.duration(ofFrames: format.periodFrames)
        let giveUp = clock.now + Self.soundPlayOutLimit
        while try !engine.soundHasPlayedOut(), !stopRequested(), clock.now < giveUp {
            switch pace {
            case .stepped:
                scheduler.run(until: clock.now + slice)
            case .threaded:
                FinishSignal().wait(for: slice)
            }
        }
    }

    /// Stops every player, leaves the actuator stopped and in standby, and stops the timing thread.
    func finish() throws {
        let stopped = FinishSignal()
        engine.stop { error in stopped.finish(error) }
        scheduler.stopThread()
        if case .some(.some(let error)) = stopped.outcome { throw error }
    }

    /// Waits for the current player to finish; false when a stop was requested first. A player the
    /// engine cut (a bus error, a fault) ends the wait with its error.
    private func wait(frameInterval: Duration, stopRequested: () -> Bool, snapshot: (@Sendable () -> Void)?, frame: (() -> Void)?) throws -> Bool {
        while true {
            if stopRequested() { return false }
            if let outcome = finished.outcome {
                if let error = outcome { throw error }
                return true
            }
            switch pace {
            case .stepped:
                scheduler.run(until: clock.now + frameInterval)
            case .threaded:
                if let snapshot {
                    auxiliaryActionCount += 1
                    scheduler.schedule(at: clock.now, class: .control, costKey: "live-view") { snapshot() }
                }
                finished.wait(for: frameInterval)
            }
            frame?()
        }
    }
}

/// How the current player ended, handed from the engine's handler thread to the waiting one.
private final class FinishSignal: @unchecked Sendable {
    private let condition = NSCondition()
    /// nil: still playing; `.some(nil)`: ended; `.some(error)`: cut by the engine.
    private var state: (any Error)??

    var outcome: (any Error)?? {
        condition.withLock { state }
    }

    func reset() {
        condition.withLock { state = nil }
    }

    func finish(_ error: (any Error)?) {
        condition.withLock {
            if state == nil { state = .some(error) }
            condition.broadcast()
        }
    }

    /// Waits up to `duration` of wall time for `finish`.
    func wait(for duration: Duration) {
        condition.withLock {
            guard state == nil else { return }
            _ = condition.wait(until: Date(timeIntervalSinceNow: duration.secondsValue))
        }
    }
}
