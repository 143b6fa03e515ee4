/// An `LRAModel` asked for with parameters no resonator (or no stable integration) can have.
public enum LRAModelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `parameter` was `value`; it must satisfy `requirement`.
    case invalidParameter(_ parameter: String, value: Double, requirement: String)

    /// Which parameter is wrong and what it must be.
    public var description: String {
        switch self {
        case .invalidParameter(let parameter, let value, let requirement):
            return "LRA model \(parameter) \(value) is invalid: it must be \(requirement)"
        }
    }
}
