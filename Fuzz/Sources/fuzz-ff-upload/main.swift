import ActuatorHAL
import FuzzSupport
import HapticRuntime
import HardwareMocks

/// The force-feedback upload structure (`struct ff_effect`, as a game's EVIOCSFF hands it over)
/// through the simulated uinput device into `ForceFeedbackProvider` and its mapping
/// (`ForceFeedbackPlan`), played on the `sim` board on its virtual clock.
///
/// Input: a script of operations, each an op byte and its fields: upload an effect (every
/// `ff_effect` field), play a slot, erase one, set the gain, let time pass. Whatever the script
/// does, once every effect is erased the actuator is not driving.
///
/// Each input gets a rig of its own, as a game gets a freshly opened device: a finding then
/// replays from its input alone, and an input's allocations balance, so libFuzzer's leak check
/// (an input that allocated more than it freed is run again under LeakSanitizer's scan of the
/// whole heap) runs again only the few that do not: a leak, or a first use of something the
/// Swift runtime keeps.
private final class Rig {
    let hardware = SimulatedBoardHardware()
    let engine: HapticEngine
    let device: SimulatedForceFeedbackDevice
    let provider: ForceFeedbackProvider
    let client: SimulatedForceFeedbackDevice.Client

    init() throws {
        let board = try simBoard.open(on: hardware)
        engine = board.makeEngine()
        try engine.start()
        let setup = ForceFeedbackDeviceSetup(name: "hapticboard fuzz", capabilities: .hapticboard(effectSlots: 16))
        guard let device = try hardware.createForceFeedbackDevice(setup) as? SimulatedForceFeedbackDevice,
              let layout = ForceFeedbackLayout(actuators: board.board.actuatorNames) else {
            fatalError("no simulated force-feedback device")
        }
        self.device = device
        provider = try ForceFeedbackProvider(device: device, engine: engine, layout: layout)
        device.serviceHook = { [unowned provider] in _ = try? provider.serviceRequests() }
        client = device.connect()
    }

    /// What closing the device does: every effect stopped, the device removed.
    deinit {
        provider.stop()
        engine.stopAtOnce()
    }

    func run(milliseconds: Int) {
        engine.scheduler.run(until: hardware.virtualClock.now + .milliseconds(milliseconds))
    }
}

private func effect(from input: inout FuzzInput) -> ForceFeedbackEffect {
    let type = 0x50 + UInt16(input.byte() % 9)
    let id: Int16 = input.byte() & 1 == 0 ? -1 : Int16(input.byte() % 20) - 2
    let direction = input.uint16()
    let triggerButton = input.uint16()
    let triggerInterval = input.uint16()
    let length = input.uint16()
    let delay = input.uint16()
    let envelope = ForceFeedbackEffect.Envelope(attackLength: input.uint16(), attackLevel: input.uint16(),
                                                fadeLength: input.uint16(), fadeLevel: input.uint16())
    let kind: ForceFeedbackEffect.Kind
    switch ForceFeedbackEffectType(rawValue: type) {
    case .rumble: kind = .rumble(strong: input.uint16(), weak: input.uint16())
    case .periodic:
        kind = .periodic(.init(waveform: ForceFeedbackWaveform(rawValue: 0x58 + UInt16(input.byte() % 7)), period: input.uint16(),
                               magnitude: input.int16(), offset: input.int16(), phase: input.uint16(), envelope: envelope))
    case .constant: kind = .constant(level: input.int16(), envelope: envelope)
    case .ramp: kind = .ramp(start: input.int16(), end: input.int16(), envelope: envelope)
    default: kind = .other(ForceFeedbackEffectType(rawValue: type))
    }
    return ForceFeedbackEffect(id: id, kind: kind, direction: direction, triggerButton: triggerButton,
                               triggerInterval: triggerInterval, length: length, delay: delay)
}

// Read from its text once: reading it again for each rig took a tenth of the run. (libFuzzer
// calls the target from one thread only.)
nonisolated(unsafe) private let simBoard = Board.sim

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzForceFeedbackUpload(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let rig: Rig
    do { rig = try Rig() } catch { fatalError("the force-feedback rig does not start: \(error)") }
    var input = FuzzInput(data, size)
    var held: Set<Int16> = []
    for _ in 0..<8 where !input.isEmpty {
        switch input.byte() % 5 {
        case 0:
            let uploaded = effect(from: &input)
            _ = uploaded.refusal(slots: 16)
            if let id = try? rig.client.upload(uploaded) { held.insert(id) }
        case 1: try? rig.client.play(effectID: Int16(input.byte() % 18) - 1, count: Int32(input.byte() % 4))
        case 2:
            let id = Int16(input.byte() % 18) - 1
            if (try? rig.client.erase(effectID: id)) != nil { held.remove(id) }
        case 3: try? rig.client.setGain(input.uint16())
        default: rig.run(milliseconds: Int(input.byte()) * 4)
        }
    }
    for id in held { try? rig.client.erase(effectID: id) }
    rig.run(milliseconds: 20)
    Invariant.require(rig.device.storedEffects.isEmpty, "effects left after erasing every one: \(rig.device.storedEffects)")
    let level = rig.hardware.chips["main"]?.chip.drive.level(at: rig.hardware.virtualClock.now).amplitude ?? 0
    Invariant.require(level == 0, "the actuator drives \(level) after every effect was erased")
    return 0
}
