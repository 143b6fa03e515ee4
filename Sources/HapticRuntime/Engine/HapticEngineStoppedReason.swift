extension HapticEngine {
    /// Why the engine stopped on its own (never reported when the application called `stop`).
    /// Raw values follow Core Haptics' `CHHapticEngine.StoppedReason` where one exists.
    public enum StoppedReason: Int, Sendable, Hashable, CustomStringConvertible {
        /// Auto-shutdown: every actuator was idle past its sleep timeout.
        case idleTimeout = 3
        /// `notifyWhenPlayersFinished` returned `.stopEngine`.
        case notifyWhenFinished = 4
        /// The engine was released while running.
        case engineDestroyed = 5
        /// A driver failed (bus error, fault) and the chip was reset to a safe state.
        case systemError = -1
        /// A driver failed and the chip could not even be stopped over the bus (EN dropped where possible).
        case deviceLost = -2

        /// The reason in words, for logs.
        public var description: String {
            switch self {
            case .idleTimeout: "idle timeout"
            case .notifyWhenFinished: "players finished"
            case .engineDestroyed: "engine destroyed"
            case .systemError: "system error"
            case .deviceLost: "device lost"
            }
        }
    }

    /// What the engine does once `notifyWhenPlayersFinished` has been told every player finished.
    public enum FinishedAction: Sendable, Hashable {
        /// Stop the engine (stoppedHandler gets `.notifyWhenFinished`).
        case stopEngine
        /// Keep running.
        case leaveEngineRunning
    }
}
