/// A fault on some of an engine's actuators, which the engine handled without stopping: the
/// players using them ended (their completion got `fault`), the actuators were made safe, and
/// players on the other actuators played on (`HapticEngine.actuatorFaultHandler`).
public struct ActuatorFaultReport: Sendable, CustomStringConvertible {
    /// The failing actuators, by name, in the engine's order.
    public var actuators: [String]
    /// `.systemError`: they were power-cycled, re-initialised and wait in standby for the next
    /// content. `.deviceLost`: they could not be, and are off (EN low where they have it); the
    /// next content tries to wake them again.
    public var outcome: HapticEngine.StoppedReason
    /// The error behind it: a bus error, a fault the chip reported.
    public var fault: any Error

    /// One line for logs: the actuators, what became of them and why.
    public var description: String {
        let state = outcome == .systemError ? "re-initialised" : "off"
        return "actuator \(actuators.joined(separator: ", ")) \(state) after a fault: \(fault)"
    }
}
