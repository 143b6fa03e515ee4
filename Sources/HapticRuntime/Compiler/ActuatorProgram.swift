import ActuatorHAL

/// One thing to tell an actuator.
public enum ActuatorCommand: Sendable, Hashable {
    /// Switch the actuator into a drive mode (issued ahead of the mode's first event by the
    /// mode-switch cost, so the switch never delays an event).
    case prepare(DriveMode)
    /// Play ROM sequencer steps.
    case trigger([SequencerStep])
    /// Set the real-time amplitude: 0…1 drive; negative values (only on actuators with signed
    /// amplitude) are a short active brake.
    case amplitude(Double)
    /// Set the drive frequency in hertz (adjustable-frequency actuators that stream amplitude,
    /// e.g. an LRA in open loop; the sharpness mapping decides it).
    case frequency(Double)
    /// Mono signed 16-bit samples at `ActuatorProgram.pcmSampleRate`, starting at the command's time.
    case pcm([Int16])
    /// Stop all output.
    case stop
}

/// A command and when it must take effect, in seconds from the pattern start. Commands that prepare
/// a mode can be negative: they are issued before the pattern starts (see `leadTime`).
public struct TimedCommand: Sendable, Hashable {
    /// When the command takes effect, in seconds from the pattern start.
    public var time: Double
    /// What to do.
    public var command: ActuatorCommand

    /// Creates a timed command.
    public init(time: Double, command: ActuatorCommand) {
        self.time = time
        self.command = command
    }
}

/// Something the compiler had to change or leave out.
public struct ProgramWarning: Sendable, Hashable, CustomStringConvertible {
    /// Pattern time the warning is about, when it is about one.
    public var time: Double?
    /// What happened, in words.
    public var message: String

    /// Creates a warning.
    public init(time: Double?, message: String) {
        self.time = time
        self.message = message
    }

    /// `warning: at T s: message`.
    public var description: String {
        guard let time else { return "warning: \(message)" }
        return "warning: at \(CompactNumber.text(time)) s: \(message)"
    }
}

/// What one actuator does for one pattern: a time-sorted list of commands.
public struct ActuatorProgram: Sendable, Hashable {
    /// Sorted by time; commands at the same time keep the order they must be issued in.
    public var commands: [TimedCommand]
    /// Seconds from the pattern start to the final `.stop`.
    public var duration: Double
    /// Real-time amplitude update rate actually used, in hertz.
    public var updateRate: Double
    /// Sample rate of `.pcm` commands, in hertz.
    public var pcmSampleRate: Int
    /// What the compiler changed or left out.
    public var warnings: [ProgramWarning]

    /// Creates a program; `commands` must already be sorted by time.
    public init(commands: [TimedCommand], duration: Double, updateRate: Double, pcmSampleRate: Int, warnings: [ProgramWarning]) {
        self.commands = commands
        self.duration = duration
        self.updateRate = updateRate
        self.pcmSampleRate = pcmSampleRate
        self.warnings = warnings
    }

    /// How long before the pattern start the first command must be issued (0 when none is early).
    public var leadTime: Double { max(0, -(commands.first?.time ?? 0)) }
}

extension ActuatorCommand: CustomStringConvertible {
    /// One short line for listings (`hapticboard inspect --program`).
    public var description: String {
        switch self {
        case .prepare(let mode): "prepare \(mode.rawValue)"
        case .trigger(let steps): "trigger \(steps.summary)"
        case .amplitude(let value): "amplitude \(CompactNumber.text(value))"
        case .frequency(let hertz): "frequency \(CompactNumber.text(hertz)) Hz"
        case .pcm(let samples): "pcm \(samples.count) samples"
        case .stop: "stop"
        }
    }
}

extension TimedCommand: CustomStringConvertible {
    /// `0.25 s: amplitude 0.502`.
    public var description: String { "\(CompactNumber.text(time)) s: \(command)" }
}

extension ActuatorProgram: CustomStringConvertible {
    /// A listing: a summary line, one line per command, then the warnings.
    public var description: String {
        let header = "program: \(commands.count) commands, \(CompactNumber.text(duration)) s, updates at \(CompactNumber.text(updateRate)) Hz"
        return ([header] + commands.map(\.description) + warnings.map(\.description)).joined(separator: "\n")
    }
}
