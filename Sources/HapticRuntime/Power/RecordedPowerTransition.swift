import ActuatorHAL

/// One power transition the engine made, on which actuator, and whether the engine chose it
/// (ahead of content, idle timeout) or the application asked for it.
public struct RecordedPowerTransition: Sendable, Hashable {
    /// The actuator's name on the engine.
    public var actuator: String
    /// The driver's measured report.
    public var report: PowerTransitionReport
    /// True when the engine started it on its own; false for explicit calls.
    public var automatic: Bool

    /// A recorded transition.
    public init(actuator: String, report: PowerTransitionReport, automatic: Bool) {
        self.actuator = actuator
        self.report = report
        self.automatic = automatic
    }
}
