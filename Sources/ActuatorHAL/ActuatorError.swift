/// Errors any `Actuator` may throw independently of its driver.
public enum ActuatorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The actuator cannot do `operation` (e.g. PCM on an I2C chip, a chosen drive frequency on a
    /// closed-loop LRA). The compiler avoids such commands when capabilities say so; this catches
    /// the rest instead of silently dropping output.
    case unsupported(actuator: String, operation: String)

    /// Which actuator refused what.
    public var description: String {
        switch self {
        case .unsupported(let actuator, let operation):
            return "actuator \(actuator) does not support \(operation)"
        }
    }
}
