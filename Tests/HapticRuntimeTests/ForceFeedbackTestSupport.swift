import ActuatorHAL
import BoardFiles
import Foundation
import HardwareMocks
import SystemPackage
import XCTest
@testable import HapticRuntime

/// A board offered as a force-feedback device on simulated hardware: the provider answers the
/// simulated kernel device at once (its service hook), and time moves only with `run(for:)`.
final class ForceFeedbackRig {
    let hardware = SimulatedBoardHardware()
    let board: OpenedBoard
    let engine: HapticEngine
    let device: SimulatedForceFeedbackDevice
    let provider: ForceFeedbackProvider
    let client: SimulatedForceFeedbackDevice.Client

    /// The built-in sim board (one LRA), or `Boards/<file>` from the repository; `keys` are the
    /// device's buttons (a board's `inputs:` with `key:`); `alsoDeclared`, types the device
    /// declares beyond what hapticboard plays, so the kernel passes them on to be refused.
    init(boardFile: String? = nil, slots: Int = 16, keys: [UInt16] = [], alsoDeclared: [ForceFeedbackEffectType] = []) throws {
        let description = try boardFile.map { try Board(contentsOf: Self.repository.appendingPathComponent("Boards/\($0)")) } ?? Board.sim
        board = try description.open(on: hardware)
        engine = board.makeEngine()
        try engine.start()
        var setup = ForceFeedbackDeviceSetup(name: "hapticboard test", capabilities: .hapticboard(effectSlots: slots))
        setup.keys = keys
        setup.capabilities.effectTypes.formUnion(alsoDeclared)
        device = try XCTUnwrap(try hardware.createForceFeedbackDevice(setup) as? SimulatedForceFeedbackDevice)
        provider = try ForceFeedbackProvider(device: device, engine: engine, layout: try XCTUnwrap(ForceFeedbackLayout(actuators: board.board.actuatorNames)))
        let provider = provider
        device.serviceHook = { _ = try? provider.serviceRequests() }
        client = device.connect()
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    var clock: VirtualClock { hardware.virtualClock }

    /// Runs the engine's scheduler for `seconds` of virtual time.
    func run(for seconds: Double) {
        engine.scheduler.run(until: clock.now + .seconds(seconds))
    }

    /// The drive actuator `name`'s chip puts out now, 0…1.
    func drive(_ name: String = "main") -> Double {
        hardware.chips[name]?.chip.drive.level(at: clock.now).amplitude ?? -1
    }

    /// RTP_INPUT writes that reached chip `name`, in order.
    func realtimeWrites(_ name: String = "main") -> [UInt8] {
        (hardware.chips[name]?.bus.log ?? []).compactMap { entry in
            guard entry.error == nil, entry.operations.count == 1, case .write(let bytes) = entry.operations[0], bytes.count == 2, bytes[0] == 0x02 else { return nil }
            return bytes[1]
        }
    }

    /// The errno a client call failed with, or nil when it succeeded.
    static func errno(_ call: () throws -> Void) -> Errno? {
        do {
            try call()
            return nil
        } catch {
            if case .request(_, _, let errno)? = error as? ForceFeedbackError { return errno }
            return nil
        }
    }
}

enum TestEffects {
    static func rumble(strong: UInt16, weak: UInt16, length: UInt16 = 0, delay: UInt16 = 0, id: Int16 = -1) -> ForceFeedbackEffect {
        ForceFeedbackEffect(id: id, kind: .rumble(strong: strong, weak: weak), length: length, delay: delay)
    }

    static func constant(_ level: Int16, length: UInt16 = 0, direction: UInt16 = 0, envelope: ForceFeedbackEffect.Envelope = .none, id: Int16 = -1) -> ForceFeedbackEffect {
        ForceFeedbackEffect(id: id, kind: .constant(level: level, envelope: envelope), direction: direction, length: length)
    }

    static func ramp(length: UInt16) -> ForceFeedbackEffect {
        ForceFeedbackEffect(kind: .ramp(start: 0, end: 0x7FFF, envelope: .none), length: length)
    }

    static func periodic(_ waveform: ForceFeedbackWaveform, period: UInt16, magnitude: Int16 = 0x7FFF, length: UInt16 = 0) -> ForceFeedbackEffect {
        ForceFeedbackEffect(kind: .periodic(.init(waveform: waveform, period: period, magnitude: magnitude)), length: length)
    }
}
