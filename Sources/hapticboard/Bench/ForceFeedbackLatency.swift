import ActuatorHAL
import ActuatorHALLinux
import Foundation
import HapticRuntime
import HardwareMocks

/// `bench --ff`: how long an `EV_FF` play takes to reach the bus through a `ForceFeedbackProvider`,
/// beside the direct engine path in the same run. The device is the simulated kernel device (a
/// client thread writes the play, the provider's thread reads it), the chip the sim board's
/// simulated DRV2605L behind a `ZeroCostBus`, ready (its idle timeouts far beyond the run), so
/// the figures are software overhead: device queue, provider thread, engine and timing thread.
struct ForceFeedbackLatency {
    /// The effect played: full strong rumble for 20 ms.
    static let effect = ForceFeedbackEffect(kind: .rumble(strong: 0xFFFF, weak: 0), length: 20)
    /// How long each play is left to end before the next.
    static let settle = Duration.milliseconds(40)
    /// How long one play may take to reach the bus before the run gives up on it.
    static let patience = Duration.seconds(2)

    let clock: SystemMonotonicClock
    let scheduler: DeadlineScheduler
    /// Whether the provider's thread asks for real-time priority, as `rumble` and `serve` do.
    let realtime: Bool
    let samples: Int

    /// Both figures: through the device, then `player.start(atTime: now)` of the same pattern.
    func run() throws -> (device: LatenessHistogram, direct: LatenessHistogram) {
        let rig = try ReadyChipEngine(clock: clock, scheduler: scheduler)
        let (bus, engine) = (rig.bus, rig.engine)
        try engine.wakeActuators()
        try engine.start()
        defer { engine.stop() }
        let device = SimulatedForceFeedbackDevice(setup: ForceFeedbackDeviceSetup(name: "hapticboard bench"))
        let provider = try ForceFeedbackProvider(device: device, engine: engine, layout: ForceFeedbackLayout(strong: rig.actuator, weak: nil))
        try provider.start(threadSetup: realtime ? RealtimeThread.inputReader : nil)
        defer { provider.stop() }
        let client = device.connect()
        let id = try client.upload(Self.effect)

        // The first play prepares the chip for real-time drive; not measured.
        try client.play(effectID: id, count: 1)
        try clock.sleep(for: Self.settle)
        var viaDevice = LatenessHistogram()
        for _ in 0..<samples {
            bus.arm()
            let requested = clock.now
            try client.play(effectID: id, count: 1)
            if let wrote = bus.waitForWrite(patience: Self.patience) { viaDevice.record(wrote - requested) }
            try clock.sleep(for: Self.settle)
        }

        let pattern = provider.plans(ofSlot: Int(id))[rig.actuator]?.pattern ?? HapticPattern()
        let player = try engine.makeAdvancedPlayer(with: pattern, on: rig.actuator)
        var direct = LatenessHistogram()
        for _ in 0..<samples {
            bus.arm()
            let requested = clock.now
            try player.start(atTime: requested.seconds)
            if let wrote = bus.waitForWrite(patience: Self.patience) { direct.record(wrote - requested) }
            try clock.sleep(for: Self.settle)
        }
        return (viaDevice, direct)
    }
}
