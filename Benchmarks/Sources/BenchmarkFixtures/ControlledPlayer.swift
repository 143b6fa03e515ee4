import ActuatorHAL
import HapticRuntime

/// A game's continuous player under live control: a 30 s buzz playing on a `ReadyEngine` while
/// `sendOnce()` sends it a new intensity, as a racing game does with its engine note every frame.
/// What one send costs must not grow with the sends before it.
public final class ControlledPlayer {
    static let pattern = HapticPattern(events: [HapticEvent(
        type: .hapticContinuous, time: 0, duration: 30,
        parameters: [.init(.hapticIntensity, 0.8), .init(.hapticSharpness, 0.3)]
    )])

    let fixture: ReadyEngine
    let player: HapticAdvancedPatternPlayer
    private var sends = 0

    public init() throws {
        fixture = try ReadyEngine()
        player = try fixture.engine.makeAdvancedPlayer(with: Self.pattern)
        try player.start(atTime: 0)
    }

    deinit {
        try? player.stop(atTime: 0)
    }

    /// Sends the next intensity (0.1 … 1 in turn) for now; returns how long the call took.
    public func sendOnce() throws -> Duration {
        sends += 1
        let started = fixture.clock.now
        try player.sendParameters([DynamicParameter(.hapticIntensityControl, value: Double(sends % 10 + 1) / 10, time: 0)], atTime: 0)
        return fixture.clock.now - started
    }
}
