import XCTest
@testable import HapticRuntime

/// Apple's rules (defaults, clamping, unknown keys ignored) and what real files contain.
final class AHAPLeniencyTests: XCTestCase {
    func testOutOfRangeValuesAreClampedWithAWarningNamingKeyPathAndLocation() throws {
        let text = """
        { "Pattern": [
          { "Event": { "EventType": "HapticTransient", "EventParameters": [
            { "ParameterID": "HapticIntensity", "ParameterValue": 1.4 },
            { "ParameterID": "AudioPitch", "ParameterValue": -3 } ] } },
          { "Parameter": { "ParameterID": "HapticIntensityControl", "ParameterValue": -0.5 } },
          { "ParameterCurve": { "ParameterID": "HapticSharpnessControl", "ParameterCurveControlPoints": [
            { "Time": 0, "ParameterValue": 2 } ] } }
        ] }
        """
        let content = try XCTUnwrap(AHAPFixtures.read(text))
        XCTAssertEqual(content.pattern.events.first?.parameters, [
            EventParameter(.hapticIntensity, 1), EventParameter(.audioPitch, -1),
        ])
        XCTAssertEqual(content.pattern.parameters.first?.value, 0)
        XCTAssertEqual(content.pattern.parameterCurves.first?.controlPoints, [ControlPoint(time: 0, value: 1)])
        XCTAssertEqual(content.warnings.map(\.description), [
            "test.ahap:3:59: warning: Pattern[0].Event.EventParameters[0].ParameterValue: 1.4 is outside 0.0…1.0; clamped to 1.0",
            "test.ahap:4:54: warning: Pattern[0].Event.EventParameters[1].ParameterValue: -3.0 is outside -1.0…1.0; clamped to -1.0",
            "test.ahap:5:79: warning: Pattern[1].Parameter.ParameterValue: -0.5 is outside 0.0…1.0; clamped to 0.0",
            "test.ahap:7:36: warning: Pattern[2].ParameterCurve.ParameterCurveControlPoints[0].ParameterValue: 2.0 is outside -1.0…1.0; clamped to 1.0",
        ])
    }

    func testUnknownKeysAreIgnoredWithAWarning() throws {
        let text = """
        { "Version": 1, "Editor": "x", "Pattern": [
          { "Event": { "Tme": 3, "EventType": "HapticTransient" }, "Colour": "red" } ] }
        """
        let content = try XCTUnwrap(AHAPFixtures.read(text))
        XCTAssertEqual(content.pattern.events, [HapticEvent(type: .hapticTransient, time: 0)])
        XCTAssertEqual(content.warnings.map(\.description), [
            "test.ahap:2:60: warning: Pattern[0].Colour: unknown key; ignored",
            "test.ahap:2:16: warning: Pattern[0].Event.Tme: unknown key; ignored",
            "test.ahap:1:17: warning: Editor: unknown key; ignored",
        ])
    }

    func testUnsortedTimesAreSortedKeepingTheOrderOfEqualTimes() throws {
        let text = """
        { "Pattern": [
          { "Event": { "Time": 0.5, "EventType": "HapticTransient" } },
          { "Event": { "Time": 0.1, "EventType": "HapticContinuous", "EventDuration": 0.2 } },
          { "Event": { "Time": 0.5, "EventType": "AudioContinuous", "EventDuration": 0.2 } },
          { "Event": { "Time": 0.1, "EventType": "HapticTransient" } },
          { "Parameter": { "ParameterID": "HapticIntensityControl", "Time": 2, "ParameterValue": 0.5 } },
          { "Parameter": { "ParameterID": "HapticIntensityControl", "Time": 1, "ParameterValue": 0.7 } },
          { "ParameterCurve": { "ParameterID": "HapticIntensityControl", "Time": 3, "ParameterCurveControlPoints": [
            { "Time": 0.4, "ParameterValue": 0.1 }, { "Time": 0.2, "ParameterValue": 0.2 } ] } },
          { "ParameterCurve": { "ParameterID": "HapticSharpnessControl", "Time": 1, "ParameterCurveControlPoints": [] } },
          { "ParameterCurve": { "ParameterID": "HapticIntensityControl", "Time": 2, "ParameterCurveControlPoints": [ { "Time": 0, "ParameterValue": 0.3 } ] } }
        ] }
        """
        let content = try XCTUnwrap(AHAPFixtures.read(text))
        let pattern = content.pattern
        XCTAssertEqual(pattern.events.map(\.time), [0.1, 0.1, 0.5, 0.5])
        XCTAssertEqual(pattern.events.map(\.type), [.hapticContinuous, .hapticTransient, .hapticTransient, .audioContinuous])
        XCTAssertEqual(pattern.parameters.map(\.value), [0.7, 0.5])
        XCTAssertEqual(pattern.parameterCurves.map(\.id), [.hapticSharpnessControl, .hapticIntensityControl, .hapticIntensityControl])
        XCTAssertEqual(pattern.parameterCurves.map(\.time), [1, 2, 3])
        XCTAssertEqual(pattern.parameterCurves.last?.controlPoints.map(\.time), [0.2, 0.4])
        XCTAssertEqual(content.warnings.map(\.description), [
            "test.ahap:9:45: warning: Pattern[6].ParameterCurve.ParameterCurveControlPoints[1]: control points are not in time order; sorted by Time",
            "test.ahap:10:23: warning: Pattern[7].ParameterCurve.ParameterCurveControlPoints: no control points; the curve changes nothing",
            "test.ahap:3:14: warning: Pattern[1].Event: events are not in time order; sorted by Time",
            "test.ahap:7:18: warning: Pattern[5].Parameter: dynamic parameters are not in time order; sorted by Time",
            // Not at Pattern[7]: a sharpness curve before an intensity curve is no disorder.
            "test.ahap:11:23: warning: Pattern[8].ParameterCurve: parameter curves are not in time order; sorted by Time",
        ])
    }

    func testLongCurvesAreReadWhole() throws {
        let points = (0..<1500).map { #"{ "Time": \#(Double($0) / 1000), "ParameterValue": \#(Double($0 % 100) / 100) }"# }
        let text = #"{ "Pattern": [ { "ParameterCurve": { "ParameterID": "HapticIntensityControl", "Time": 0, "ParameterCurveControlPoints": ["#
            + points.joined(separator: ",\n") + "] } } ] }"
        let content = try XCTUnwrap(AHAPFixtures.read(text))
        XCTAssertEqual(content.warnings, [])
        let curve = try XCTUnwrap(content.pattern.parameterCurves.first)
        XCTAssertEqual(curve.controlPoints.count, 1500)
        XCTAssertEqual(curve.controlPoints[1499], ControlPoint(time: 1.499, value: 0.99))
    }

    func testContinuousEventsOverThirtySecondsAreSplit() throws {
        let text = AHAPFixtures.singleEvent("""
        "Time": 1, "EventType": "HapticContinuous", "EventDuration": 75, "EventParameters": [
          { "ParameterID": "HapticIntensity", "ParameterValue": 0.3 },
          { "ParameterID": "AttackTime", "ParameterValue": 0.5 },
          { "ParameterID": "ReleaseTime", "ParameterValue": 0.25 } ]
        """)
        let content = try XCTUnwrap(AHAPFixtures.read(text))
        XCTAssertEqual(content.pattern.events, [
            HapticEvent(type: .hapticContinuous, time: 1, duration: 30, parameters: [
                EventParameter(.hapticIntensity, 0.3), EventParameter(.attackTime, 0.5), EventParameter(.releaseTime, 0),
            ]),
            HapticEvent(type: .hapticContinuous, time: 31, duration: 30, parameters: [
                EventParameter(.hapticIntensity, 0.3), EventParameter(.attackTime, 0), EventParameter(.releaseTime, 0),
            ]),
            HapticEvent(type: .hapticContinuous, time: 61, duration: 15, parameters: [
                EventParameter(.hapticIntensity, 0.3), EventParameter(.attackTime, 0), EventParameter(.releaseTime, 0.25),
            ]),
        ])
        XCTAssertEqual(content.warnings.map(\.description), [
            "test.ahap:3:79: warning: Pattern[0].Event.EventDuration: 75.0 s is longer than the 30 s Core Haptics plays a continuous event; split into 3 consecutive events",
        ])
    }

    func testSplitRuleLeavesShortAndNonHapticEventsAlone() {
        let thirty = HapticEvent(type: .hapticContinuous, time: 0, duration: 30)
        XCTAssertEqual(thirty.splitAtContinuousLimit(), [thirty])
        let audio = HapticEvent(type: .audioContinuous, time: 0, duration: 45)
        XCTAssertEqual(audio.splitAtContinuousLimit(), [audio])
        let justOver = HapticEvent(type: .hapticContinuous, time: 2, duration: 60.000_000_001)
        let pieces = justOver.splitAtContinuousLimit()
        XCTAssertEqual(pieces.count, 3)
        XCTAssertTrue(pieces.allSatisfy { ($0.duration ?? 0) <= HapticEvent.continuousDurationLimit })
        XCTAssertEqual(pieces.compactMap(\.duration).reduce(0, +), 60.000_000_001, accuracy: 1e-9)
    }

    func testABareEventWithoutPatternIsAccepted() throws {
        let content = try AHAP.read(contentsOf: AHAPFixtures.example("bare-event.ahap"))
        XCTAssertEqual(content.pattern.events, [
            HapticEvent(type: .hapticTransient, time: 0, parameters: [
                EventParameter(.hapticIntensity, 0.8), EventParameter(.hapticSharpness, 0.6),
            ]),
        ])
        XCTAssertEqual(content.warnings.map(\.message), [
            "Event: a bare Event outside a Pattern array; read as a pattern element",
        ])
        XCTAssertTrue(content.warnings[0].location.hasSuffix("bare-event.ahap:2:14"), content.warnings[0].location)
    }

    func testAFileWithoutPatternIsAnEmptyPattern() throws {
        let content = try XCTUnwrap(AHAPFixtures.read(#"{ "Version": 1.0 }"#))
        XCTAssertEqual(content.pattern, HapticPattern(version: 1))
        XCTAssertEqual(content.warnings.map(\.description), ["test.ahap:1:1: warning: (top level): no Pattern; the pattern is empty"])
    }

    func testRepeatedKeysKeepTheLastValueWithAWarning() throws {
        let text = AHAPFixtures.singleEvent(#""EventType": "HapticTransient", "Time": 1, "Time": 2"#)
        let content = try XCTUnwrap(AHAPFixtures.read(text))
        XCTAssertEqual(content.pattern.events.map(\.time), [2])
        XCTAssertEqual(content.warnings.map(\.description), [
            "test.ahap:3:61: warning: Pattern[0].Event.Time: appears more than once; the last value is used",
        ])
    }

    func testWaveformKeysOnOtherEventTypesAreIgnoredWithAWarning() throws {
        let text = AHAPFixtures.singleEvent(#""EventType": "HapticTransient", "EventWaveformPath": "a.wav""#)
        let content = try XCTUnwrap(AHAPFixtures.read(text))
        XCTAssertEqual(content.pattern.events, [HapticEvent(type: .hapticTransient, time: 0)])
        XCTAssertEqual(content.warnings.map(\.message), [
            "Pattern[0].Event.EventWaveformPath: applies only to AudioCustom events; ignored",
        ])
    }

    func testRealWorldQuirksExample() throws {
        let content = try AHAP.read(contentsOf: AHAPFixtures.example("real-world-quirks.ahap"))
        let pattern = content.pattern
        XCTAssertEqual(pattern.version, 1)
        XCTAssertEqual(pattern.metadata["Created"], "20241105")
        XCTAssertEqual(pattern.events.map(\.time), [0.1, 0.5, 1, 31])
        XCTAssertEqual(pattern.events.map(\.duration), [nil, nil, 30, 10])
        XCTAssertEqual(pattern.events[1].parameters, [EventParameter(.hapticIntensity, 1), EventParameter(.hapticSharpness, 0)])
        XCTAssertEqual(content.warnings.map(\.message), [
            "Metadata.Created: a number, not a string; kept as the text 20241105",
            "Pattern[0].Event.EventParameters[0].ParameterValue: 1.4 is outside 0.0…1.0; clamped to 1.0",
            "Pattern[0].Event.EventParameters[1].ParameterValue: -0.2 is outside 0.0…1.0; clamped to 0.0",
            "Pattern[1].Event.EditorColour: unknown key; ignored",
            "Pattern[2].Event.EventDuration: 40.0 s is longer than the 30 s Core Haptics plays a continuous event; split into 2 consecutive events",
            "Pattern[1].Event: events are not in time order; sorted by Time",
        ])
    }
}
