import ActuatorHAL
import HardwareMocks
import XCTest
@testable import HapticRuntime

/// Sustained drive never exceeds the actuator's rated voltage, whatever the loop: content at full
/// intensity, compiled and played by the engine, measured across the simulated chip's output.
final class DriveVoltageTests: XCTestCase {
    private func lra(_ loop: DRV2605Loop) -> DRV2605Configuration {
        DRV2605Configuration(ratings: DRV2605Ratings(kind: .lra, loop: loop, ratedVoltage: 2.0, overdriveVoltage: 2.8, resonantFrequency: 175))
    }

    /// Plays `events` to their end and returns the highest RMS voltage over any 100 ms.
    private func maximumRMS(_ configuration: DRV2605Configuration, playing events: [HapticEvent], until end: Double) throws -> Double {
        let rig = EngineRig(configuration: configuration)
        try rig.engine.start()
        let player = try rig.engine.makePlayer(with: HapticPattern(events: events))
        try player.start(atTime: 0.01)
        rig.run(until: end)
        XCTAssertEqual(rig.drive(at: end), 0, "the pattern ended")
        return rig.board.chip.drive.maximumRMSVolts(over: .milliseconds(100), from: .zero, to: rig.now)
    }

    private func maximumRMS(loop: DRV2605Loop, sharpness: Double) throws -> Double {
        try maximumRMS(lra(loop), playing: [TestPatterns.continuous(duration: 1, intensity: 1, sharpness: sharpness)], until: 1.5)
    }

    private func compile(_ events: [HapticEvent], on configuration: DRV2605Configuration) -> ActuatorProgram {
        PatternCompiler(capabilities: EngineRig(configuration: configuration).actuator.capabilities).compile(HapticPattern(events: events))
    }

    private func triggeredEffects(_ program: ActuatorProgram) -> [UInt8] {
        program.commands.compactMap { command -> UInt8? in
            guard case .trigger(let steps) = command.command, case .effect(let id)? = steps.first else { return nil }
            return id
        }
    }

    // Open loop, a ROM effect's full scale is the 2.8 V clamp: Soft Bump - 100 % holds it for
    // 100 ms, 2.65 V rms on an LRA rated 2.0 V. Closed loop, full scale is the rating.
    func testAStrongRoundTransientOnAnOpenLoopLRAPlaysTheBumpThatStaysWithinTheRatedVoltage() throws {
        let bump = [TestPatterns.transient(intensity: 1, sharpness: 0.1)]
        let open = compile(bump, on: lra(.open))
        // The nearest effect on the intensity × sharpness plane that fits (ROMEffectTable).
        XCTAssertEqual(triggeredEffects(open), [22], "Medium Click 2 - 80 %")
        XCTAssertEqual(open.warnings.map(\.message), ["transient played as Medium Click 2 - 80% (22): Soft Bump - 100% (7) would drive above the rated voltage"])
        let closed = compile(bump, on: lra(.closed))
        XCTAssertEqual(triggeredEffects(closed), [7], "Soft Bump - 100 %")
        XCTAssertEqual(closed.warnings, [])
        XCTAssertLessThanOrEqual(try maximumRMS(lra(.open), playing: bump, until: 1), 2.0)
    }

    // Strong Click - 100 % (60 ms at full scale) alone would be 2.05 V rms over 100 ms open loop;
    // every 70 ms, most of each window is click. Each click gets the nearest effect that fits its
    // share of the window and the clicks before it: all ten play, none at full strength.
    func testATrainOfStrongClicksOnAnOpenLoopLRAStaysWithinTheRatedVoltage() throws {
        let clicks = (0..<10).map { TestPatterns.transient(at: Double($0) * 0.07, intensity: 1, sharpness: 0.6) }
        let program = compile(clicks, on: lra(.open))
        XCTAssertEqual(triggeredEffects(program).count, 10, "every click plays: \(triggeredEffects(program)) \(program.warnings)")
        XCTAssertFalse(triggeredEffects(program).contains(1), "\(triggeredEffects(program))")
        XCTAssertEqual(triggeredEffects(compile(clicks, on: lra(.closed))), Array(repeating: 1, count: 10))
        XCTAssertLessThanOrEqual(try maximumRMS(lra(.open), playing: clicks, until: 2), 2.0)
    }

    func testAFullScaleContinuousEventStaysWithinTheRatedVoltageOverAny100ms() throws {
        // Open loop: RTP full scale is the 2.8 V clamp (2.65 V rms at resonance). Sharpness 0 drives
        // at 0.8 × resonance, where the open-loop RMS of full scale is highest.
        for sharpness in [0.0, 0.5, 1.0] {
            let rms = try maximumRMS(loop: .open, sharpness: sharpness)
            XCTAssertLessThanOrEqual(rms, 2.0, "open loop, sharpness \(sharpness)")
            XCTAssertGreaterThan(rms, 1.8, "open loop, sharpness \(sharpness): full intensity is close to rated")
        }
        XCTAssertLessThanOrEqual(try maximumRMS(loop: .closed, sharpness: 1), 2.0, "closed loop")
    }
}
