import ActuatorHAL
import ActuatorHALLinux
import Dispatch
import Foundation
import HapticRuntime
import HardwareMocks

/// Part (b) of the benchmark from the application's side: `player.start()` on a `HapticEngine`
/// whose actuator is awake and ready, timed until the engine's first register write reaches a
/// `ZeroCostBus`. The chip is the sim board's simulated DRV2605L, so its driver does everything it
/// does on hardware except wait for the wire; the figure is the engine's, the player's and the
/// scheduler's overhead.
struct PlayerStartOverhead {
    /// The pattern started each time: one transient, whose first command is a register write.
    static let pattern = HapticPattern(events: [HapticEvent(type: .hapticTransient, time: 0)])
    /// The row's name in the report.
    static let method = "HapticAdvancedPatternPlayer.start() → bus write (zero-cost bus)"
    /// How long one start may take before the run gives up on it.
    static let patience: TimeInterval = 2

    let clock: SystemMonotonicClock
    let scheduler: DeadlineScheduler
    let samples: Int

    /// Measures `samples` starts, each after the previous player finished and a pause, so the
    /// timing thread has gone idle every time; returns the overheads and how many starts never
    /// reached the bus.
    func run() throws -> (overhead: LatenessHistogram, missing: Int) {
        let rig = try ReadyChipEngine(clock: clock, scheduler: scheduler)
        let (bus, engine) = (rig.bus, rig.engine)
        let stopReason = StopReasonBox()
        engine.stoppedHandler = { reason in stopReason.reason = "\(reason)" }
        try engine.start()
        defer {
            // Waited for, so the chip's standby writes do not overlap the next part of the bench.
            let stopped = DispatchSemaphore(value: 0)
            engine.stop { _ in stopped.signal() }
            _ = stopped.wait(timeout: .now() + Self.patience)
        }
        // The first start wakes and prepares the chip; it is not measured.
        try playToEnd(engine, bus: nil)
        if let reason = stopReason.reason { throw PlayerStartOverheadError.engineStopped(reason) }
        var overhead = LatenessHistogram()
        for index in 0..<samples {
            try clock.sleep(for: WakeOverhead.pause)
            bus.arm()
            guard let started = try playToEnd(engine, bus: bus) else { return (overhead, samples - index) }
            overhead.record(started)
        }
        return (overhead, 0)
    }

    /// Starts the pattern now and waits for its end; with `bus`, returns the time from the start
    /// call to the first write (nil when none came).
    @discardableResult
    private func playToEnd(_ engine: HapticEngine, bus: ZeroCostBus?) throws -> Duration? {
        let player = try engine.makeAdvancedPlayer(with: Self.pattern)
        let finished = NSCondition()
        let state = FinishFlag()
        player.completionHandler = { _ in
            finished.withLock {
                state.isSet = true
                finished.broadcast()
            }
        }
        let requested = clock.now
        try player.start(atTime: 0)
        let wrote = bus?.waitForWrite(patience: .seconds(Self.patience))
        let giveUp = Date(timeIntervalSinceNow: Self.patience)
        finished.withLock {
            while !state.isSet {
                guard finished.wait(until: giveUp) else { break }
            }
        }
        return wrote.map { $0 - requested }
    }
}

/// Set by a player's completion handler on the engine's thread, read under the caller's lock.
private final class FinishFlag: @unchecked Sendable {
    var isSet = false
}

/// The reason the engine's stoppedHandler gave, handed from the engine's thread.
private final class StopReasonBox: @unchecked Sendable {
    var reason: String?
}

/// Why part (b)'s player measurement could not run.
enum PlayerStartOverheadError: Error, CustomStringConvertible {
    /// The engine stopped itself (an actuator error) during the unmeasured first start.
    case engineStopped(String)

    var description: String {
        switch self {
        case .engineStopped(let reason): "bench (b): the engine stopped while waking the simulated chip: \(reason)"
        }
    }
}
