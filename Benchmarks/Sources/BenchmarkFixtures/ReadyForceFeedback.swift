import ActuatorHAL
import Foundation
import HapticRuntime
import HardwareMocks

/// A `ForceFeedbackProvider` over a `ReadyEngine`, its simulated device serving each request on
/// the client's thread (`serviceHook`), with one short rumble uploaded: `playOnce()` then measures
/// what an `EV_FF` play costs from the device's queue to the first register write — the provider's
/// part of the kernel lane's "EV_FF write → first bus write", without the provider thread's wake-up —
/// and `uploadNewWave(_:)` what a game waits for in `EVIOCSFF` when it uploads a moving effect.
public final class ReadyForceFeedback {
    /// The effect played: a full strong rumble for 20 ms, as `bench --ff` plays.
    static let effect = ForceFeedbackEffect(kind: .rumble(strong: 0xFFFF, weak: 0), length: 20)

    let ready: ReadyEngine
    let device: SimulatedForceFeedbackDevice
    let provider: ForceFeedbackProvider
    let client: SimulatedForceFeedbackDevice.Client
    let slot: Int16
    /// Where `uploadNewWave(_:)` and `uploadNewRamp(_:)` upload (the kernel keeps a slot's effect type).
    let waveSlot: Int16
    let rampSlot: Int16

    public init() throws {
        ready = try ReadyEngine()
        device = SimulatedForceFeedbackDevice(setup: ForceFeedbackDeviceSetup(name: "hapticboard hotpath"))
        let provider = try ForceFeedbackProvider(device: device, engine: ready.engine, layout: ForceFeedbackLayout(strong: "main", weak: nil))
        self.provider = provider
        device.serviceHook = { [unowned provider] in _ = try? provider.serviceRequests() }
        client = device.connect()
        slot = try client.upload(Self.effect)
        waveSlot = try client.upload(Self.newWave(-1, slot: -1))
        rampSlot = try client.upload(Self.newRamp(-1, slot: -1))
        // The first play compiles nothing more but warms the provider's and the engine's paths.
        _ = try playOnce()
    }

    /// A ramp over SDL's longest length, 65,535 ms, from a start of its own for each `sample` to
    /// full: 127 amplitude steps along one straight line, which the renderer probes for rather
    /// than sampling 65,535 times (docs/performance.md, "Compiling").
    public static func newRamp(_ sample: Int, slot: Int16) -> ForceFeedbackEffect {
        ForceFeedbackEffect(id: slot, kind: .ramp(start: Int16((sample + 1) * 97 % 0x2000), end: 0x7FFF, envelope: .none), length: 0xFFFF)
    }

    /// A 200 ms sine followed for 10 s, at a magnitude of its own for each `sample` (so nothing
    /// compiled before is reused), as `bench --ff` uploads: planning it and compiling 10,000
    /// updates is what `EVIOCSFF` waits for.
    public static func newWave(_ sample: Int, slot: Int16) -> ForceFeedbackEffect {
        ForceFeedbackEffect(id: slot, kind: .periodic(.init(waveform: .sine, period: 200, magnitude: Int16(0x2000 + (sample + 1) * 97 % 0x5000))), length: 10_000)
    }

    deinit {
        provider.stop()
    }

    /// Plays the uploaded rumble, waits for its first register write, then stops it; returns the
    /// time from the play's write into the device to that register write (nil when none came).
    @discardableResult
    public func playOnce() throws -> Duration? {
        ready.chip.bus.arm()
        let requested = ready.clock.now
        try client.play(effectID: slot, count: 1)
        let wrote = ready.chip.bus.waitForWrite(patience: .seconds(ReadyEngine.patience))
        try client.play(effectID: slot, count: 0)
        return wrote.map { $0 - requested }
    }

    /// Uploads `newWave(sample)` into a slot of its own; returns how long the upload took.
    @discardableResult
    public func uploadNewWave(_ sample: Int) throws -> Duration {
        try timedUpload(Self.newWave(sample, slot: waveSlot))
    }

    /// Uploads `newRamp(sample)` into a slot of its own; returns how long the upload took.
    @discardableResult
    public func uploadNewRamp(_ sample: Int) throws -> Duration {
        try timedUpload(Self.newRamp(sample, slot: rampSlot))
    }

    private func timedUpload(_ effect: ForceFeedbackEffect) throws -> Duration {
        let requested = ready.clock.now
        _ = try client.upload(effect)
        return ready.clock.now - requested
    }
}
