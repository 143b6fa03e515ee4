import XCTest
@testable import HapticRuntime

/// Conversions both ways, and the tolerance they keep: `.haptic` → AHAP → `.haptic` gives every
/// breakpoint back within 0.01 (amplitude, frequency, emphasis) at the same times; AHAP →
/// `.haptic` → AHAP plays the same continuous intensity and sharpness within 0.01 at every
/// millisecond, and the same transients at the same times within 0.01.
final class HapticClipRoundTripTests: XCTestCase {
    static let tolerance = 0.01

    func testWriteThenReadGivesTheSameClip() throws {
        let clip = try XCTUnwrap(HapticClip.read(contentsOf: HapticClipFixtures.examplesFolder.appendingPathComponent("haptic/impact-rumble.haptic")).clip)
        XCTAssertEqual(try HapticClip.read(text: clip.text, file: "again").clip, clip)
    }

    /// The AHAP text holds the pattern whole but for the emphasis mark, which AHAP has no key for
    /// (played as one Core Haptics pattern, the curves shape the transients too; Meta's players
    /// play them on a second player, as hapticboard does with the mark).
    func testAHAPTextHoldsTheClipsPattern() throws {
        let clip = try XCTUnwrap(HapticClip.read(contentsOf: HapticClipFixtures.examplesFolder.appendingPathComponent("haptic/impact-rumble.haptic")).clip)
        var expected = clip.pattern.fittedToCoreHapticsLimits()
        for index in expected.events.indices { expected.events[index].isEmphasis = false }
        XCTAssertEqual(try AHAP.read(text: AHAP.write(clip.pattern.fittedToCoreHapticsLimits()), file: "converted.ahap").pattern, expected)
    }

    func testHapticToAHAPToHaptic() throws {
        let original = try XCTUnwrap(HapticClip.read(contentsOf: HapticClipFixtures.examplesFolder.appendingPathComponent("haptic/impact-rumble.haptic")).clip)
        let back = HapticClip.conversion(of: original.pattern.fittedToCoreHapticsLimits())
        XCTAssertEqual(back.losses, [], "a pattern made from a clip carries nothing a clip cannot")
        let envelope = Envelope(back.clip.amplitude.map { ($0.time, $0.amplitude) })
        for breakpoint in original.amplitude {
            XCTAssertEqual(envelope.value(at: breakpoint.time, after: breakpoint.emphasis != nil), breakpoint.amplitude, accuracy: Self.tolerance, "amplitude at \(breakpoint.time)")
        }
        let emphasis = back.clip.amplitude.compactMap { point in point.emphasis.map { (point.time, $0) } }
        let expected = original.amplitude.compactMap { point in point.emphasis.map { (point.time, $0) } }
        XCTAssertEqual(emphasis.map(\.0), expected.map(\.0))
        for ((_, got), (_, want)) in zip(emphasis, expected) {
            XCTAssertEqual(got.amplitude, want.amplitude, accuracy: Self.tolerance)
            XCTAssertEqual(got.frequency, want.frequency, accuracy: Self.tolerance)
        }
        let frequency = Envelope(try XCTUnwrap(back.clip.frequency).map { ($0.time, $0.frequency) })
        for breakpoint in try XCTUnwrap(original.clampedFrequency(endingAt: original.duration)) {
            XCTAssertEqual(frequency.value(at: breakpoint.time), breakpoint.frequency, accuracy: Self.tolerance, "frequency at \(breakpoint.time)")
        }
        XCTAssertEqual(back.clip.duration, original.duration, accuracy: 1e-6)
    }

    func testAHAPToHapticToAHAPPlaysTheSame() throws {
        for name in ["continuous-envelopes.ahap", "parameter-curves.ahap", "transients.ahap", "dynamic-parameters.ahap"] {
            let original = try AHAP.read(contentsOf: HapticClipFixtures.examplesFolder.appendingPathComponent("ahap/\(name)")).pattern
            let clip = HapticClip(converting: original)
            XCTAssertEqual(try HapticClip.read(text: clip.text, file: "converted.haptic").clip, clip, "\(name): the conversion validates as v1")
            assertPlaysTheSame(original, clip.pattern.fittedToCoreHapticsLimits(), name)
        }
    }

    func testNotationAndNotesConvertBothWays() throws {
        let notation = try ContentLoader.load(contentsOf: HapticClipFixtures.examplesFolder.appendingPathComponent("notation/continuous-events-with-adsr-envelope.hnl")).pattern
        assertPlaysTheSame(notation, HapticClip(converting: notation).pattern, "notation")
        let notes = try ContentLoader.load(contentsOf: HapticClipFixtures.examplesFolder.appendingPathComponent("notes/confirmation.notes")).pattern
        assertPlaysTheSame(notes, HapticClip(converting: notes).pattern, "notes")
    }

    func testWhatAClipCannotCarryIsListed() {
        var pattern = HapticPattern(events: [
            TestPatterns.continuous(at: 0, duration: 0.5, intensity: 0.8),
            TestPatterns.continuous(at: 0.2, duration: 0.5, intensity: 0.8),
            HapticEvent(type: .audioCustom, time: 0, waveformPath: "x.wav"),
            HapticEvent(type: .audioContinuous, time: 0, duration: 1),
        ])
        pattern.events[0].parameters.append(EventParameter(.attackTime, 0.1))
        pattern.parameters = [DynamicParameter(.audioVolumeControl, value: 0.5, time: 0)]
        let conversion = HapticClip.conversion(of: pattern)
        XCTAssertEqual(conversion.losses, [
            "2 audio event(s) left out (.haptic has no sound)",
            "attack/decay/release/sustain parameters of 1 event(s) (their shape is sampled into the envelope)",
            "overlapping continuous events summed and clamped to 1",
            "1 dynamic parameter(s) or curve(s) other than intensity and sharpness controls (envelope times, audio controls)",
        ])
        XCTAssertTrue(conversion.warning?.hasPrefix(".haptic cannot carry everything of this pattern: 2 audio event(s)") ?? false)
        // Summed and clamped: 0.8 + 0.8 → 1 where they overlap, so amplitude 1.
        let envelope = Envelope(conversion.clip.amplitude.map { ($0.time, $0.amplitude) })
        XCTAssertEqual(envelope.value(at: 0.35), 1, accuracy: 1e-9)
        XCTAssertEqual(envelope.value(at: 0.6), 0.64, accuracy: 1e-9)
        // Half-way up the 0.1 s attack the clip plays intensity 0.8 × 0.5.
        XCTAssertEqual(PatternEvaluator(conversion.clip.pattern).state(at: 0.05).continuous.first?.intensity ?? -1, 0.4, accuracy: 0.002)
    }

    func testATransientBecomesEmphasisOnABreakpointAtItsTime() throws {
        let pattern = HapticPattern(events: [
            TestPatterns.continuous(at: 0, duration: 1, intensity: 0.5, sharpness: 0.5),
            TestPatterns.transient(at: 0.3, intensity: 0.9, sharpness: 0.8),
            TestPatterns.transient(at: 1.5, intensity: 0.7, sharpness: 0.2),
        ])
        let clip = HapticClip(converting: pattern)
        let first = try XCTUnwrap(clip.amplitude.first { $0.time == 0.3 })
        XCTAssertEqual(first.emphasis, Emphasis(amplitude: 0.81, frequency: 0.8))
        XCTAssertEqual(first.amplitude, 0.25 / 0.64, accuracy: 1e-6, "un-ducked so the pattern made from it has intensity 0.5 there")
        let second = try XCTUnwrap(clip.amplitude.first { $0.time == 1.5 })
        XCTAssertEqual(second.emphasis, Emphasis(amplitude: 0.49, frequency: 0.2))
        XCTAssertEqual(second.amplitude, 0)
        XCTAssertEqual(clip.duration, 1.52, accuracy: 1e-9, "the last transient's nominal 20 ms")
        XCTAssertEqual(clip.frequency?.first?.frequency ?? 0, 0.25, accuracy: 1e-9, "sharpness 0.5 → frequency 0.25")
    }

    // MARK: Helpers

    /// The continuous haptics of `a` and `b` agree within the tolerance every millisecond, and
    /// their transients agree in time, intensity and sharpness.
    private func assertPlaysTheSame(_ a: HapticPattern, _ b: HapticPattern, _ name: String, file: StaticString = #filePath, line: UInt = #line) {
        let (left, right) = (PatternEvaluator(a), PatternEvaluator(b))
        let end = max(a.duration, b.duration)
        var worstIntensity = 0.0
        var worstSharpness = 0.0
        for step in 0...Int(end * 1000) {
            let time = Double(step) / 1000
            let (x, y) = (level(left, time), level(right, time))
            worstIntensity = max(worstIntensity, abs(x.intensity - y.intensity))
            if x.intensity > 0.05 { worstSharpness = max(worstSharpness, abs(x.sharpness - y.sharpness)) }
        }
        XCTAssertLessThanOrEqual(worstIntensity, Self.tolerance, "\(name): intensity", file: file, line: line)
        XCTAssertLessThanOrEqual(worstSharpness, Self.tolerance, "\(name): sharpness", file: file, line: line)
        let (impulsesA, impulsesB) = (left.impulses, right.impulses)
        XCTAssertEqual(impulsesA.map(\.time), impulsesB.map(\.time), "\(name): transient times", file: file, line: line)
        for (x, y) in zip(impulsesA, impulsesB) {
            XCTAssertEqual(x.intensity, y.intensity, accuracy: Self.tolerance, "\(name): transient at \(x.time)", file: file, line: line)
            XCTAssertEqual(x.sharpness, y.sharpness, accuracy: Self.tolerance, "\(name): transient at \(x.time)", file: file, line: line)
        }
    }

    private func level(_ evaluator: PatternEvaluator, _ time: Double) -> DriveLevel {
        DriveLevel.mix(evaluator.state(at: time).continuous.filter { $0.type == .hapticContinuous }.map { DriveLevel(intensity: $0.intensity, sharpness: $0.sharpness) })
    }

    /// A linear envelope through points, read at a time (at a step, the value from the time on,
    /// or with `after` the last point at the time).
    private struct Envelope {
        let points: [(time: Double, value: Double)]

        init(_ points: [(Double, Double)]) { self.points = points.map { (time: $0.0, value: $0.1) } }

        func value(at time: Double, after: Bool = false) -> Double {
            if after, let exact = points.last(where: { $0.time == time }) { return exact.value }
            guard let next = points.firstIndex(where: { $0.time > time }) else { return points.last?.value ?? 0 }
            guard next > 0 else { return points[0].value }
            let (a, b) = (points[next - 1], points[next])
            return a.value + (b.value - a.value) * (time - a.time) / (b.time - a.time)
        }
    }
}
