/// Faults of a PCM-driven actuator beyond its device's `PCMError`.
public enum PCMActuatorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Samples were written before `prepare(for: .pcm)`.
    case notReady(actuator: String, state: PowerState)
    /// The actuator was asked to prepare a mode other than PCM.
    case unsupportedMode(actuator: String, mode: DriveMode)
    /// The opened device's channel count differs from the channel map's.
    case channelMismatch(actuator: String, device: String, deviceChannels: Int, mapChannels: Int)

    public var description: String {
        switch self {
        case .notReady(let actuator, let state):
            "actuator \(actuator): PCM written while \(state.rawValue); prepare it for pcm first"
        case .unsupportedMode(let actuator, let mode):
            "actuator \(actuator) is driven as audio and cannot prepare \(mode.rawValue)"
        case .channelMismatch(let actuator, let device, let deviceChannels, let mapChannels):
            "actuator \(actuator): device \(device) has \(deviceChannels) channels but the channel map is for \(mapChannels)"
        }
    }
}
