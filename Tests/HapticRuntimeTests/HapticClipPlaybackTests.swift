import ActuatorHAL
import Foundation
import HardwareMocks
import XCTest
@testable import HapticRuntime

/// A `.haptic` clip played on the simulated board: the amplitude envelope reaches the DRV2605 as
/// √amplitude (the intensity mapping AHAP content gets), each emphasis as a short full-strength
/// click over the ducked continuous signal at its time, and the chip is left stopped in standby.
final class HapticClipPlaybackTests: XCTestCase {
    /// Frequency 1 throughout: sharpness 1, so the closed-loop LRA's amplitude is the intensity itself.
    private let clip = HapticClip(
        amplitude: [
            AmplitudeBreakpoint(time: 0, amplitude: 0),
            AmplitudeBreakpoint(time: 0.1, amplitude: 1),
            AmplitudeBreakpoint(time: 0.5, amplitude: 1),
            AmplitudeBreakpoint(time: 0.5001, amplitude: 0.25),
            AmplitudeBreakpoint(time: 0.7, amplitude: 0.25, emphasis: Emphasis(amplitude: 1, frequency: 1)),
            AmplitudeBreakpoint(time: 0.9, amplitude: 0.25),
            AmplitudeBreakpoint(time: 1.0, amplitude: 0),
        ],
        frequency: [FrequencyBreakpoint(time: 0, frequency: 1), FrequencyBreakpoint(time: 1, frequency: 1)])

    func testAmplitudeAndEmphasisReachTheChipAtTheirTimes() throws {
        let rig = EngineRig()
        try rig.engine.start()
        let player = try rig.engine.makePlayer(with: clip.pattern)
        let start = 1.0
        try player.start(atTime: start)
        rig.run(until: start + 1.5)

        // Full scale is what amplitude 1 plays; every other level is measured against it.
        let full = rig.drive(at: start + 0.3)
        XCTAssertGreaterThan(full, 0.5)
        func relative(_ time: Double) -> Double { rig.drive(at: start + time) / full }
        // Rising along √(amplitude) of the linear ramp 0 → 1 over 0.1 s: intensity is linear in
        // the control curve, √0 → √1, so half-way it is 0.5.
        XCTAssertEqual(relative(0.05), 0.5, accuracy: 0.02)
        XCTAssertEqual(relative(0.45), 1, accuracy: 0.02)
        // Amplitude 0.25 plays at √0.25 = 0.5, but the emphasis breakpoint at 0.7 s is ducked to
        // 0.8 × 0.5 = 0.4, and intensity runs linearly between the control points: 0.5 → 0.4 → 0.5.
        XCTAssertEqual(relative(0.55), 0.5 - 0.1 * 0.25, accuracy: 0.02)
        XCTAssertEqual(relative(0.65), 0.5 - 0.1 * 0.75, accuracy: 0.02)
        // At 0.7 s the click adds √1 = 1 for 10 ms (sharpness 1): full drive …
        XCTAssertEqual(relative(0.705), 1, accuracy: 0.02)
        // … then the ducked continuous signal again.
        XCTAssertEqual(relative(0.715), 0.4 + 0.1 * 0.075, accuracy: 0.02)
        XCTAssertEqual(relative(0.85), 0.5 - 0.1 * 0.25, accuracy: 0.02)

        // The click starts on its deadline: the first write of full drive after 0.6 s.
        let writes = rig.writes(to: 0x02).filter { $0.end > .at(start + 0.6) }
        let peak = try XCTUnwrap(writes.map(\.value).max())
        let click = try XCTUnwrap(writes.first { $0.value == peak })
        XCTAssertEqual((click.end - .at(start + 0.7)).secondsValue, 0, accuracy: 0.0011, "click at \(click.end)")
        // It is the only such stretch after the drop at 0.5 s: one click per emphasis.
        let fullStretches = zip(writes, writes.dropFirst()).filter { $0.0.value != peak && $0.1.value == peak }.count + (writes.first?.value == peak ? 1 : 0)
        XCTAssertEqual(fullStretches, 1)
        XCTAssertEqual(rig.drive(at: start + 1.2), 0)
        XCTAssertFalse(player.isPlaying)
        rig.engine.stop()
        rig.run(until: start + 2)
        rig.assertStoppedInStandby()
    }

    func testEmphasisIsNeverAROMEffectAndRaisesNoWarning() {
        let program = PatternCompiler(capabilities: ActuatorCapabilities(
            kind: .lra, romLibrary: .lra, supportsRealtimeAmplitude: true, supportsSignedAmplitude: false,
            supportsPCM: false, resonantFrequency: 175, frequencyAdjustable: false,
            amplitudeUpdateCost: .microseconds(73), maximumContinuousDrive: nil)).compile(clip.pattern)
        XCTAssertEqual(program.warnings, [])
        XCTAssertFalse(program.commands.contains { if case .trigger = $0.command { return true } else { return false } })
    }
}
