import ActuatorHAL
import Foundation
import HardwareMocks
import XCTest
@testable import HapticRuntime

/// The `sim` board's actuator: a 175 Hz LRA in closed loop on a DRV2605L (ROM library, unsigned RTP).
let engineTestLRA = DRV2605Configuration(ratings: DRV2605Ratings(kind: .lra, loop: .closed, ratedVoltage: 2.0, overdriveVoltage: 2.8, resonantFrequency: 175))

/// One register write at 400 kHz: 29 SCL cycles.
let oneWrite = Duration.nanoseconds(72_500)

/// An engine on the simulated board, driven by `scheduler.run(until:)` on the board's virtual clock.
final class EngineRig {
    let board: SimulatedBoard
    let actuator: DRV2605Actuator
    let scheduler: DeadlineScheduler
    let engine: HapticEngine

    init(
        idleTimeouts: IdleTimeouts = .default, maximumContinuousDrive: Duration? = nil, configuration: DRV2605Configuration = engineTestLRA,
        variant: DRV2605Model.Variant = .drv2605L, compilerOptions: CompilerOptions = CompilerOptions(),
        statusPollInterval: Duration? = EngineActuator.defaultStatusPollInterval
    ) {
        board = SimulatedBoard(variant: variant)
        actuator = DRV2605Actuator(name: "main", driver: DRV2605(bus: board.bus, enableLine: board.enableLine, clock: board.clock), configuration: configuration)
        scheduler = DeadlineScheduler(clock: board.clock)
        engine = HapticEngine(
            actuators: [EngineActuator(actuator, idleTimeouts: idleTimeouts, maximumContinuousDrive: maximumContinuousDrive, statusPollInterval: statusPollInterval)],
            clock: board.clock, scheduler: scheduler, compilerOptions: compilerOptions
        )
    }

    var now: MonotonicInstant { board.clock.now }

    /// Runs the scheduler until engine time `seconds`.
    func run(until seconds: Double) {
        scheduler.run(until: .at(seconds))
    }

    /// Register writes `register ← value` that reached the chip, with the instant each completed.
    /// A write of consecutive registers (the sequencer's slots) counts for each register it
    /// reaches, as the chip's register pointer advances.
    func writes(to register: UInt8) -> [(end: MonotonicInstant, value: UInt8)] {
        board.bus.log.compactMap { entry in
            guard entry.error == nil, entry.operations.count == 1, case .write(let bytes) = entry.operations[0],
                  let first = bytes.first, register >= first, Int(register - first) + 1 < bytes.count else { return nil }
            return (entry.time + oneWrite, bytes[Int(register - first) + 1])
        }
    }

    /// When GO was set (a ROM sequence started), as the write completed.
    var goTimes: [MonotonicInstant] { writes(to: 0x0C).filter { $0.value == 1 }.map(\.end) }

    /// The model's output amplitude at `seconds`.
    func drive(at seconds: Double) -> Double {
        board.chip.drive.level(at: .at(seconds)).amplitude
    }

    /// The chip is stopped and in standby: EN high, MODE.STANDBY set, GO clear, RTP 0.
    func assertStoppedInStandby(file: StaticString = #filePath, line: UInt = #line) {
        assertChipStoppedInStandby(board.chip, file: file, line: line)
        XCTAssertEqual(actuator.powerState, .standby, file: file, line: line)
    }
}

/// The chip model is stopped and in standby: EN high, MODE.STANDBY set, GO clear, RTP 0.
func assertChipStoppedInStandby(_ chip: DRV2605Model, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertTrue(chip.isEnabled, "EN", file: file, line: line)
    XCTAssertEqual(chip.register(DRV2605Register.mode.rawValue) & 0x40, 0x40, "MODE.STANDBY", file: file, line: line)
    XCTAssertEqual(chip.register(DRV2605Register.go.rawValue), 0, "GO", file: file, line: line)
    XCTAssertEqual(chip.register(DRV2605Register.realtimeInput.rawValue), 0, "RTP_INPUT", file: file, line: line)
}

extension MonotonicInstant {
    /// The instant `seconds` after the clock's origin.
    static func at(_ seconds: Double) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: Int64((seconds * 1e9).rounded()))
    }
}

/// Patterns used across the engine tests.
enum TestPatterns {
    static func transient(at time: Double = 0, intensity: Double = 1, sharpness: Double = 0.5) -> HapticEvent {
        HapticEvent(type: .hapticTransient, time: time, parameters: [EventParameter(.hapticIntensity, intensity), EventParameter(.hapticSharpness, sharpness)])
    }

    static func continuous(at time: Double = 0, duration: Double, intensity: Double = 1, sharpness: Double = 0.5) -> HapticEvent {
        HapticEvent(type: .hapticContinuous, time: time, duration: duration, parameters: [EventParameter(.hapticIntensity, intensity), EventParameter(.hapticSharpness, sharpness)])
    }

    static func taps(at times: [Double]) -> HapticPattern {
        HapticPattern(events: times.map { transient(at: $0) })
    }

    static func buzz(duration: Double, intensity: Double = 1) -> HapticPattern {
        HapticPattern(events: [continuous(duration: duration, intensity: intensity)])
    }
}

/// Values handed to handlers, collected from whichever thread called them.
final class Collected<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Value] = []
    var values: [Value] { lock.withLock { storage } }
    func append(_ value: Value) { lock.withLock { storage.append(value) } }
}
