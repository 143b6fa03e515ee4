import XCTest
@testable import HapticRuntime

final class EvaluationTests: XCTestCase {
    private func continuous(
        at time: Double, duration: Double, intensity: Double = 1, sharpness: Double = 0.5,
        attack: Double = 0, decay: Double = 0, release: Double = 0, sustained: Bool = true
    ) -> HapticEvent {
        HapticEvent(type: .hapticContinuous, time: time, duration: duration, parameters: [
            EventParameter(.hapticIntensity, intensity), EventParameter(.hapticSharpness, sharpness),
            EventParameter(.attackTime, attack), EventParameter(.decayTime, decay),
            EventParameter(.releaseTime, release), EventParameter(.sustained, sustained ? 1 : 0),
        ])
    }

    // MARK: duration rule

    func testDurationIsLatestStartPlusThatEventsDuration() {
        let pattern = HapticPattern(events: [
            continuous(at: 0, duration: 2.0),
            continuous(at: 1.5, duration: 0.2),
            HapticEvent(type: .hapticTransient, time: 1.0),
        ])
        XCTAssertEqual(pattern.duration, 2.0, accuracy: 1e-12)
    }

    func testTransientUsesNominalLengthAndGivenDurationOnlyPads() {
        let bare = HapticPattern(events: [HapticEvent(type: .hapticTransient, time: 0.5)])
        XCTAssertEqual(bare.duration, 0.5 + HapticEvent.transientNominalDuration, accuracy: 1e-12)
        XCTAssertEqual(HapticEvent.transientNominalDuration, 0.02)
        let padded = HapticPattern(events: [HapticEvent(type: .hapticTransient, time: 0.5, duration: 1)])
        XCTAssertEqual(padded.duration, 1.5, accuracy: 1e-12)
        XCTAssertEqual(padded.events[0].soundingDuration, 0.02, accuracy: 1e-12)
    }

    func testParametersAndCurvesExtendTheDuration() {
        let pattern = HapticPattern(
            events: [continuous(at: 0, duration: 1)],
            parameters: [DynamicParameter(.hapticIntensityControl, value: 0.5, time: 1.2)],
            parameterCurves: [ParameterCurve(.hapticSharpnessControl, time: 0.5, controlPoints: [
                ControlPoint(time: 0, value: 0), ControlPoint(time: 1.1, value: 0.3),
            ])]
        )
        XCTAssertEqual(pattern.duration, 1.6, accuracy: 1e-12)
        XCTAssertEqual(HapticPattern().duration, 0)
    }

    // MARK: envelopes

    func testSustainedEnvelopeAttackHoldRelease() {
        let envelope = EventEnvelope(attack: 0.1, decay: 0, release: 0.2, sustained: true, duration: 1)
        XCTAssertEqual(envelope.gain(at: 0), 0, accuracy: 1e-12)
        XCTAssertEqual(envelope.gain(at: 0.05), 0.5, accuracy: 1e-12)
        XCTAssertEqual(envelope.gain(at: 0.1), 1, accuracy: 1e-12)
        XCTAssertEqual(envelope.gain(at: 0.5), 1, accuracy: 1e-12)
        XCTAssertEqual(envelope.gain(at: 0.9), 0.5, accuracy: 1e-12)
        XCTAssertEqual(envelope.gain(at: 0.95), 0.25, accuracy: 1e-12)
        XCTAssertEqual(envelope.gain(at: 1.0), 0)
        XCTAssertEqual(envelope.gain(at: -0.1), 0)
    }

    func testUnsustainedEnvelopeDecaysToZeroAndStays() {
        let envelope = EventEnvelope(attack: 0.1, decay: 0.4, release: 0, sustained: false, duration: 2)
        XCTAssertEqual(envelope.gain(at: 0.1), 1, accuracy: 1e-12)
        XCTAssertEqual(envelope.gain(at: 0.3), 0.5, accuracy: 1e-12)
        XCTAssertEqual(envelope.gain(at: 0.5), 0, accuracy: 1e-12)
        XCTAssertEqual(envelope.gain(at: 1.5), 0, accuracy: 1e-12)
    }

    func testOverlappingAttackAndReleaseMeetInATriangle() {
        let envelope = EventEnvelope(attack: 0.4, decay: 0, release: 0.4, sustained: true, duration: 0.4)
        XCTAssertEqual(envelope.gain(at: 0.2), 0.5, accuracy: 1e-12)
        XCTAssertEqual(envelope.gain(at: 0.1), 0.25, accuracy: 1e-12)
        XCTAssertEqual(envelope.gain(at: 0.3), 0.25, accuracy: 1e-12)
    }

    func testEvaluatorAppliesEventIntensityTimesEnvelope() {
        let pattern = HapticPattern(events: [continuous(at: 1, duration: 1, intensity: 0.8, sharpness: 0.3, attack: 0.2, release: 0.5)])
        let evaluator = PatternEvaluator(pattern)
        XCTAssertTrue(evaluator.state(at: 0.99).continuous.isEmpty)
        let early = evaluator.state(at: 1.1).continuous
        XCTAssertEqual(early.count, 1)
        XCTAssertEqual(early[0].intensity, 0.8 * 0.5, accuracy: 1e-12)
        XCTAssertEqual(early[0].sharpness, 0.3, accuracy: 1e-12)
        XCTAssertEqual(evaluator.state(at: 1.75).continuous[0].intensity, 0.8 * 0.5, accuracy: 1e-12)
        XCTAssertTrue(evaluator.state(at: 2.0).continuous.isEmpty)
    }

    // MARK: curves and dynamic parameters

    func testCurveInterpolatesRelativeToItsStartAndHoldsAfterTheLastPoint() {
        let timeline = ControlTimeline(parameters: [], curves: [
            ParameterCurve(.hapticIntensityControl, time: 1.0, controlPoints: [
                ControlPoint(time: 0, value: 0), ControlPoint(time: 0.5, value: 1), ControlPoint(time: 1.0, value: 0.2),
            ]),
        ])
        XCTAssertEqual(timeline.value(of: .hapticIntensityControl, at: 0.5), 1, "default before the curve")
        XCTAssertEqual(timeline.value(of: .hapticIntensityControl, at: 1.25), 0.5, accuracy: 1e-12)
        XCTAssertEqual(timeline.value(of: .hapticIntensityControl, at: 1.75), 0.6, accuracy: 1e-12)
        XCTAssertEqual(timeline.value(of: .hapticIntensityControl, at: 5), 0.2, accuracy: 1e-12)
    }

    func testLaterParameterOverridesCurveAndValuesAreClamped() {
        let timeline = ControlTimeline(
            parameters: [
                DynamicParameter(.hapticIntensityControl, value: 0.3, time: 1.5),
                DynamicParameter(.hapticSharpnessControl, value: 4, time: 0),
            ],
            curves: [ParameterCurve(.hapticIntensityControl, time: 1.0, controlPoints: [
                ControlPoint(time: 0, value: 1), ControlPoint(time: 1, value: 0),
            ])]
        )
        XCTAssertEqual(timeline.value(of: .hapticIntensityControl, at: 1.4), 0.6, accuracy: 1e-12)
        XCTAssertEqual(timeline.value(of: .hapticIntensityControl, at: 1.6), 0.3, accuracy: 1e-12)
        XCTAssertEqual(timeline.value(of: .hapticSharpnessControl, at: 0.1), 1, "clamped to −1…1")
    }

    func testEveryControlKeepsItsOwnEntries() {
        // Each id's entries sit at its ordinal: two ids sharing a slot would read each other's values.
        XCTAssertEqual(DynamicParameterID.allCases.map(\.ordinal), Array(DynamicParameterID.allCases.indices))
        let ids = DynamicParameterID.allCases
        let timeline = ControlTimeline(
            parameters: ids.enumerated().map { DynamicParameter($1, value: Double($0) / 20, time: 0) }, curves: [])
        for (index, id) in ids.enumerated() {
            XCTAssertEqual(timeline.value(of: id, at: 1), Double(index) / 20, "\(id)")
        }
        XCTAssertEqual(ControlTimeline(parameters: [], curves: []).value(of: .audioVolumeControl, at: 1), 1, "the default with no source")
    }

    func testIntensityControlMultipliesAndSharpnessControlOffsetsWithClamping() {
        let pattern = HapticPattern(
            events: [
                continuous(at: 0, duration: 2, intensity: 0.8, sharpness: 0.7),
                HapticEvent(type: .hapticTransient, time: 1.5, parameters: [
                    EventParameter(.hapticIntensity, 1), EventParameter(.hapticSharpness, 0.2),
                ]),
            ],
            parameters: [
                DynamicParameter(.hapticIntensityControl, value: 0.5, time: 1.0),
                DynamicParameter(.hapticSharpnessControl, value: 0.5, time: 1.0),
            ]
        )
        let evaluator = PatternEvaluator(pattern)
        let before = evaluator.state(at: 0.5).continuous[0]
        XCTAssertEqual(before.intensity, 0.8, accuracy: 1e-12)
        XCTAssertEqual(before.sharpness, 0.7, accuracy: 1e-12)
        let after = evaluator.state(at: 1.2).continuous[0]
        XCTAssertEqual(after.intensity, 0.4, accuracy: 1e-12)
        XCTAssertEqual(after.sharpness, 1.0, accuracy: 1e-12, "0.7 + 0.5 clamped")
        let transient = evaluator.state(at: 1.51).transients
        XCTAssertEqual(transient, [TransientImpulse(eventIndex: 1, time: 1.5, intensity: 0.5, sharpness: 0.7)])
        XCTAssertTrue(evaluator.state(at: 1.53).transients.isEmpty, "transients last 20 ms")
    }

    func testEnvelopeTimeControlsAreReadAtTheEventStart() {
        let pattern = HapticPattern(
            events: [continuous(at: 1, duration: 1, attack: 0.1)],
            parameters: [DynamicParameter(.hapticAttackTimeControl, value: 0.3, time: 0.5)]
        )
        // Attack 0.1 + 0.3 = 0.4 s: a quarter of the way up after 0.1 s.
        XCTAssertEqual(PatternEvaluator(pattern).state(at: 1.1).continuous[0].intensity, 0.25, accuracy: 1e-12)
    }

    func testAudioEventsAreReportedWithVolumeAndBrightness() {
        let audio = HapticEvent(type: .audioContinuous, time: 0, duration: 1, parameters: [EventParameter(.audioVolume, 0.6)])
        let state = PatternEvaluator(HapticPattern(events: [audio])).state(at: 0.5)
        XCTAssertEqual(state.continuous, [SoundingEvent(eventIndex: 0, type: .audioContinuous, intensity: 0.6, sharpness: 1)])
        XCTAssertFalse(HapticEventType.audioContinuous.isHaptic)
    }
}
