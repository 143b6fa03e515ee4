import ActuatorHAL

/// Why an engine or player call failed.
public enum HapticEngineError: Error, CustomStringConvertible {
    /// No actuator of that name on the engine.
    case unknownActuator(String, known: [String])
    /// The engine has no actuators.
    case noActuators
    /// A player call while the engine is stopped (and auto-shutdown cannot restart it).
    case engineNotRunning
    /// A time that is not a number or lies in the past beyond what can be played.
    case invalidTime(Double)
    /// A playback rate that is not a positive number.
    case invalidPlaybackRate(Double)
    /// Content could not be loaded.
    case content(ContentLoadingError)
    /// Content handed over as data is not UTF-8 text.
    case unreadableData
    /// An actuator call failed; the engine left the actuator stopped.
    case actuator(String, any Error)
    /// The engine cut the output: the actuator drove longer than its continuous-drive limit.
    case continuousDriveLimit(DriveLimitEvent)
    /// The actuator's chip reported a fault that shut its output stage down (over-temperature,
    /// over-current); the engine stopped everything.
    case actuatorFault(String, Set<ActuatorFault>)

    /// What went wrong, naming the actuator, time or file.
    public var description: String {
        switch self {
        case .unknownActuator(let name, let known):
            return "no actuator named '\(name)' (known: \(known.joined(separator: ", ")))"
        case .noActuators:
            return "the engine has no actuators"
        case .engineNotRunning:
            return "the haptic engine is stopped: call start() first"
        case .invalidTime(let time):
            return "invalid time \(time)"
        case .invalidPlaybackRate(let rate):
            return "playback rate must be a positive number, not \(rate)"
        case .content(let error):
            return error.description
        case .unreadableData:
            return "pattern data is not UTF-8 text"
        case .actuator(let name, let error):
            return "actuator \(name): \(error)"
        case .continuousDriveLimit(let event):
            return event.description
        case .actuatorFault(let name, let faults):
            // A reset is not a shutdown of the output stage: say what each fault means.
            let meaning = faults.subtracting([.registersReset]).isEmpty
                ? "the chip was reset (a supply dip or ESD) and must be initialised again"
                : "its output stage shut down"
            return "actuator \(name) reports \(faults.map(\.rawValue).sorted().joined(separator: " and ")): \(meaning); playback stopped"
        }
    }
}
