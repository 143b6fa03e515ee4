import ActuatorHAL
import HapticRuntime
import Logging

/// Plays compiled `ActuatorProgram`s on one actuator: each command at its deadline on a clock,
/// with a late policy and counters. A small player for the command line; it waits in slices of
/// `frameInterval` so a live view can draw and a stop request is seen within one slice.
final class ProgramPlayer {
    /// What the player counted.
    struct Statistics {
        var commands = 0
        /// Commands issued more than `lateTolerance` after their deadline.
        var late = 0
        /// Stale ROM triggers not played, and amplitude updates skipped because a later one was due.
        var dropped = 0
        /// Commands this actuator cannot carry out (drive frequency, PCM on a DRV2605).
        var unsupported = 0
        var maximumLateness: Duration = .zero
        var transitions: [PowerTransitionReport] = []
    }

    /// Later than this counts as late.
    static let lateTolerance = Duration.milliseconds(1)
    /// A ROM trigger later than this is dropped: a tap felt that late no longer belongs to its moment.
    static let staleTriggerLimit = Duration.milliseconds(20)
    /// How often the ROM sequencer is polled while waiting for it to finish.
    static let idlePollInterval = Duration.milliseconds(5)

    let actuator: any Actuator
    let clock: any MonotonicClock
    /// Playback rate: 2 plays twice as fast.
    let rate: Double
    let frameInterval: Duration
    /// Called after every wait slice with the clock's time (the live view).
    var onFrame: ((MonotonicInstant) -> Void)?
    /// Polled between commands and wait slices; true stops playback.
    let stopRequested: () -> Bool
    /// Every command but amplitude updates is logged at debug level (`-v`), with its pattern time.
    var log = Logger(label: "hapticboard.player")
    private(set) var statistics = Statistics()

    init(actuator: any Actuator, clock: any MonotonicClock, rate: Double, frameInterval: Duration, stopRequested: @escaping () -> Bool) {
        self.actuator = actuator
        self.clock = clock
        self.rate = rate
        self.frameInterval = frameInterval
        self.stopRequested = stopRequested
    }

    /// Records a power transition that changed something.
    func record(_ report: PowerTransitionReport) {
        if report.from != report.to || report.elapsed > .zero { statistics.transitions.append(report) }
    }

    /// Wall time the program takes at this rate, lead time included.
    func span(of program: ActuatorProgram) -> Duration {
        seconds((program.duration + program.leadTime) / rate)
    }

    /// Plays `program` with its time zero at `start` (early commands run before it). Returns false
    /// when a stop was requested.
    func play(_ program: ActuatorProgram, zeroAt start: MonotonicInstant) throws -> Bool {
        let commands = program.commands
        var index = 0
        while index < commands.count {
            let deadline = start + seconds(commands[index].time / rate)
            guard wait(until: deadline) else { return false }
            let now = clock.now
            let lateness = now - deadline
            defer { index += 1 }
            if case .amplitude = commands[index].command, index + 1 < commands.count,
               case .amplitude = commands[index + 1].command,
               now >= start + seconds(commands[index + 1].time / rate) {
                statistics.dropped += 1
                continue
            }
            if case .trigger = commands[index].command, lateness > Self.staleTriggerLimit {
                statistics.dropped += 1
                continue
            }
            if lateness > Self.lateTolerance { statistics.late += 1 }
            statistics.maximumLateness = max(statistics.maximumLateness, lateness)
            try execute(commands[index].command)
            statistics.commands += 1
            if case .amplitude = commands[index].command {} else {
                log.debug("\(commands[index])")
            }
        }
        return true
    }

    /// Waits until the actuator has finished a ROM sequence, at most `limit`. False when stopped.
    func waitUntilIdle(limit: Duration = .seconds(2)) throws -> Bool {
        let deadline = clock.now + limit
        while try actuator.status().isPlaying, clock.now < deadline {
            guard wait(until: clock.now + Self.idlePollInterval) else { return false }
        }
        return !stopRequested()
    }

    /// Sleeps in slices until `deadline`; false as soon as a stop is requested.
    func wait(until deadline: MonotonicInstant) -> Bool {
        while clock.now < deadline {
            if stopRequested() { return false }
            let slice = min(deadline, clock.now + frameInterval)
            do {
                try clock.sleep(until: slice)
            } catch {
                // An interrupted sleep is retried; the loop re-checks the time and the stop flag.
                continue
            }
            onFrame?(clock.now)
        }
        return !stopRequested()
    }

    private func execute(_ command: ActuatorCommand) throws {
        switch command {
        case .prepare(let mode):
            record(try actuator.prepare(for: mode))
        case .trigger(let steps):
            try actuator.play(effects: steps)
        case .amplitude(let value):
            try actuator.setAmplitude(value)
        case .stop:
            try actuator.stop()
        case .frequency, .pcm:
            statistics.unsupported += 1
        }
    }

    private func seconds(_ value: Double) -> Duration {
        .nanoseconds(Int64((value * 1e9).rounded()))
    }
}
