import ActuatorHAL
import ActuatorHALLinux
import ArgumentParser
import Foundation
import HapticRuntime
import HardwareMocks

/// `hapticboard rumble`: the board as a Linux force-feedback device until stopped.
struct RumbleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rumble",
        abstract: "Offer the board as a Linux force-feedback (rumble) device that games, SDL, Steam and fftest can drive.",
        discussion: """
            Creates a uinput device with EV_FF: FF_RUMBLE, FF_PERIODIC (sine, square, triangle, \
            saw up, saw down), FF_CONSTANT, FF_RAMP and FF_GAIN, with the name, ids and effect \
            slots of the board file's force-feedback: section (default: 'hapticboard <board>', the \
            virtual bus, 16 effects). Effects clients upload play on the board's actuators: rumble's \
            strong motor on the first (or force-feedback: strong), its weak motor on the second; \
            other effects panned by direction between them; a board with one actuator plays \
            everything on it. docs/force-feedback.md has the whole mapping. The device offers \
            force feedback only: for the board's buttons and knobs on the same device (a gamepad \
            with rumble, and effects started by a trigger button) use `buttons --uinput` or \
            `serve --force-feedback`.

            Prints the device node, then serves until Ctrl-C (SIGINT) or SIGTERM: every effect \
            stops, the actuators are left stopped and in standby, the device is removed, and the \
            command exits with 130 or 143. When the actuators fail (a bus error) the device is \
            removed too, so clients get ENODEV, and the command exits with 1.

            Needs write access to /dev/uinput (root, or a udev rule for the input group) and the \
            uinput module. On the sim board the device is real and the actuator simulated.

            Examples:
              hapticboard rumble --board sim-dual-grips
              fftest /dev/input/event5      (in another terminal, the node rumble printed)
            """
    )

    @OptionGroup var options: GlobalOptions
    @OptionGroup var realtime: RealtimeOptions

    func run() throws {
        options.bootstrapLogging()
        let log = options.logger("rumble")
        let board = try CommandBoard.open(options.resolvedBoard)
        defer { board.close() }
        board.keepOnlyRecentSimulatedHistory()
        let clock: any MonotonicClock = board.simulatedClock.map { PacedClock(pacing: $0, by: SystemMonotonicClock()) } ?? board.opened.clock
        let scheduler = DeadlineScheduler(clock: clock, name: "hapticboard-rumble")
        let engine = board.opened.makeEngine(scheduler: scheduler)
        let signals = StopRequest()
        let ended = RumbleEnding()
        // Installed before any thread starts, so every thread inherits the blocked signals.
        let termination = TerminationGuard.install(stop: { ended.provider?.stop(); engine.stopAtOnce() }) { status in
            signals.record(signal: status - 128)
            ended.finish(nil)
        }
        defer { termination.uninstall() }
        // Awake before the first effect, so it does not wait for a wake.
        try engine.wakeActuators()
        try engine.start()
        scheduler.startThread(setup: realtime.timing)
        defer {
            engine.stop()
            scheduler.stopThread()
        }
        // Force feedback only: rumble reads none of the board's buttons, so an effect with a
        // trigger button plays by EV_FF only (as on a kernel rumble device, which ignores it).
        // `buttons --uinput` and `serve --force-feedback` offer the gamepad with rumble.
        let device = try board.opened.hardware.createForceFeedbackDevice(board.board.forceFeedbackSetup.forceFeedbackOnly)
        let provider = try ForceFeedbackProvider(device: device, engine: engine, layout: board.board.forceFeedbackLayout)
        ended.provider = provider
        provider.endedHandler = { ending in ended.finish(ending) }
        // Stopped however this ends, a refused thread included: the uinput device goes with it.
        defer { provider.stop() }
        try provider.start(threadSetup: realtime.inputReader)
        let layout = provider.layout
        let motors = layout.weak.map { "strong \(layout.strong), weak \($0)" } ?? "everything on \(layout.strong)"
        // Written unbuffered, so whoever waits for the node (a script, the kernel lane) sees it at once.
        let announcement = "hapticboard rumble: \(device.clientPath ?? "a uinput device") '\(device.setup.name)' (\(device.setup.capabilities.names.joined(separator: " ")), \(device.setup.capabilities.effectSlots) effects) on board \(board.name): \(motors)\n"
        FileHandle.standardOutput.write(Data(announcement.utf8))
        log.info("serving force feedback until SIGINT or SIGTERM")
        if let failure = ended.wait() {
            throw failure
        }
        if let signal = signals.received {
            let counts = provider.counts
            print("hapticboard rumble: stopped by \(StopRequest.name(of: signal)) after \(counts.uploads) uploads (\(counts.refusedUploads) refused), \(counts.plays) plays, \(counts.stops) stops, \(counts.erases) erases, \(counts.gains) gain changes")
            throw CommandTermination(signal: signal)
        }
    }
}

/// How `rumble` ends, handed from the signal thread or the provider's to the command's thread.
final class RumbleEnding: @unchecked Sendable {
    private let condition = NSCondition()
    private var done = false
    private var failure: (any Error)?
    /// The provider, once made, for the signal thread to stop.
    var provider: ForceFeedbackProvider? {
        get { condition.withLock { made } }
        set { condition.withLock { made = newValue } }
    }
    private var made: ForceFeedbackProvider?

    /// Ends the wait; `failure` when the provider ended on its own.
    func finish(_ failure: (any Error)?) {
        condition.withLock {
            guard !done else { return }
            done = true
            self.failure = failure
            condition.broadcast()
        }
    }

    /// Waits until `finish`; returns its failure.
    func wait() -> (any Error)? {
        condition.withLock {
            while !done { condition.wait() }
            return failure
        }
    }
}
