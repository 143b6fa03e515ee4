import Foundation
import XCTest
@testable import HapticRuntime

/// Every key of the format, read into the model.
final class AHAPReaderTests: XCTestCase {
    func testEveryKeyIsRead() throws {
        let folder = try TemporaryFolder()
        _ = try folder.write("RIFF", to: "sounds/hit.wav")
        let text = """
        {
          "Version": 1.5,
          "Metadata": { "Project": "Test", "Created": "today", "Description": "every key" },
          "Pattern": [
            { "Event": { "Time": 0.25, "EventType": "HapticTransient", "EventDuration": 0.1,
                         "EventParameters": [
                           { "ParameterID": "HapticIntensity", "ParameterValue": 0.75 },
                           { "ParameterID": "HapticSharpness", "ParameterValue": 0.125 } ] } },
            { "Event": { "Time": 0.5, "EventType": "HapticContinuous", "EventDuration": 2,
                         "EventParameters": [
                           { "ParameterID": "AttackTime", "ParameterValue": 0.1 },
                           { "ParameterID": "DecayTime", "ParameterValue": 0.2 },
                           { "ParameterID": "ReleaseTime", "ParameterValue": 0.3 },
                           { "ParameterID": "Sustained", "ParameterValue": 0 } ] } },
            { "Event": { "Time": 0.75, "EventType": "AudioContinuous", "EventDuration": 1,
                         "EventParameters": [
                           { "ParameterID": "AudioVolume", "ParameterValue": 0.5 },
                           { "ParameterID": "AudioPitch", "ParameterValue": -0.5 },
                           { "ParameterID": "AudioPan", "ParameterValue": 0.25 },
                           { "ParameterID": "AudioBrightness", "ParameterValue": 0.4 } ] } },
            { "Event": { "Time": 1, "EventType": "AudioCustom", "EventWaveformPath": "sounds/hit.wav",
                         "EventWaveformUseVolumeEnvelope": true, "EventWaveformLoopEnabled": false } },
            { "Parameter": { "ParameterID": "HapticIntensityControl", "Time": 0.5, "ParameterValue": 0.3 } },
            { "ParameterCurve": { "ParameterID": "AudioPitchControl", "Time": 1.5,
                                  "ParameterCurveControlPoints": [
                                    { "Time": 0, "ParameterValue": -1 },
                                    { "Time": 0.5, "ParameterValue": 1 } ] } }
          ]
        }
        """
        let file = try folder.write(text, to: "every-key.ahap")
        let content = try AHAP.read(contentsOf: file)
        XCTAssertEqual(content.format, .ahap)
        XCTAssertEqual(content.warnings, [])
        let expected = HapticPattern(
            version: 1.5,
            metadata: ["Project": "Test", "Created": "today", "Description": "every key"],
            events: [
                HapticEvent(type: .hapticTransient, time: 0.25, duration: 0.1, parameters: [
                    EventParameter(.hapticIntensity, 0.75), EventParameter(.hapticSharpness, 0.125),
                ]),
                HapticEvent(type: .hapticContinuous, time: 0.5, duration: 2, parameters: [
                    EventParameter(.attackTime, 0.1), EventParameter(.decayTime, 0.2),
                    EventParameter(.releaseTime, 0.3), EventParameter(.sustained, 0),
                ]),
                HapticEvent(type: .audioContinuous, time: 0.75, duration: 1, parameters: [
                    EventParameter(.audioVolume, 0.5), EventParameter(.audioPitch, -0.5),
                    EventParameter(.audioPan, 0.25), EventParameter(.audioBrightness, 0.4),
                ]),
                HapticEvent(type: .audioCustom, time: 1, waveformPath: "sounds/hit.wav",
                            waveformUsesVolumeEnvelope: true, waveformLoopEnabled: false),
            ],
            parameters: [DynamicParameter(.hapticIntensityControl, value: 0.3, time: 0.5)],
            parameterCurves: [
                ParameterCurve(.audioPitchControl, time: 1.5, controlPoints: [
                    ControlPoint(time: 0, value: -1), ControlPoint(time: 0.5, value: 1),
                ]),
            ])
        XCTAssertEqual(content.pattern, expected)
    }

    func testEveryDynamicParameterIDIsAccepted() throws {
        for id in DynamicParameterID.allCases {
            let text = """
            { "Pattern": [ { "Parameter": { "ParameterID": "\(id.rawValue)", "Time": 0.5, "ParameterValue": 0.25 } } ] }
            """
            let pattern = try XCTUnwrap(AHAPFixtures.read(text)).pattern
            XCTAssertEqual(pattern.parameters, [DynamicParameter(id, value: 0.25, time: 0.5)])
        }
    }

    func testMissingKeysTakeTheirDefaults() throws {
        let text = """
        { "Pattern": [
            { "Event": { "EventType": "HapticTransient" } },
            { "Parameter": { "ParameterID": "HapticSharpnessControl", "ParameterValue": 0.5 } },
            { "ParameterCurve": { "ParameterID": "HapticIntensityControl",
                                  "ParameterCurveControlPoints": [ { "ParameterValue": 0.5 } ] } }
        ] }
        """
        let content = try XCTUnwrap(AHAPFixtures.read(text))
        XCTAssertEqual(content.warnings, [])
        let pattern = content.pattern
        XCTAssertNil(pattern.version)
        XCTAssertEqual(pattern.metadata, [:])
        XCTAssertEqual(pattern.events, [HapticEvent(type: .hapticTransient, time: 0)])
        XCTAssertEqual(pattern.events.first?.value(of: .hapticIntensity), 1)
        XCTAssertEqual(pattern.events.first?.value(of: .hapticSharpness), 0.5)
        XCTAssertEqual(pattern.parameters, [DynamicParameter(.hapticSharpnessControl, value: 0.5, time: 0)])
        XCTAssertEqual(pattern.parameterCurves, [
            ParameterCurve(.hapticIntensityControl, time: 0, controlPoints: [ControlPoint(time: 0, value: 0.5)]),
        ])
    }

    func testMissingParameterValueTakesTheParametersDefaultWithAWarning() throws {
        let text = AHAPFixtures.singleEvent("""
        "EventType": "HapticTransient", "EventParameters": [ { "ParameterID": "HapticSharpness" } ]
        """)
        let content = try XCTUnwrap(AHAPFixtures.read(text))
        XCTAssertEqual(content.pattern.events.first?.parameters, [EventParameter(.hapticSharpness, 0.5)])
        XCTAssertEqual(content.warnings.map(\.description), [
            "test.ahap:3:71: warning: Pattern[0].Event.EventParameters[0].ParameterValue: missing; using the default 0.5",
        ])
    }

    func testIntegerVersionIsANumberAndStringVersionIsReadWithAWarning() throws {
        let integer = try XCTUnwrap(AHAPFixtures.read(#"{ "Version": 2, "Pattern": [] }"#))
        XCTAssertEqual(integer.pattern.version, 2)
        XCTAssertEqual(integer.warnings, [])
        let string = try XCTUnwrap(AHAPFixtures.read(#"{ "Version": "1.0", "Pattern": [] }"#))
        XCTAssertEqual(string.pattern.version, 1)
        XCTAssertEqual(string.warnings.map(\.description), [
            #"test.ahap:1:14: warning: Version: the string "1.0"; read as the number 1.0"#,
        ])
    }

    func testMetadataValuesThatAreNotStringsAreKeptAsText() throws {
        let text = #"{ "Metadata": { "Created": 20241105, "Tags": ["a", 1], "Draft": false, "Owner": null }, "Pattern": [] }"#
        let content = try XCTUnwrap(AHAPFixtures.read(text))
        XCTAssertEqual(content.pattern.metadata, [
            "Created": "20241105", "Tags": #"[ "a", 1 ]"#, "Draft": "false", "Owner": "null",
        ])
        XCTAssertEqual(content.warnings.count, 4)
        XCTAssertEqual(content.warnings.first?.description,
                       "test.ahap:1:28: warning: Metadata.Created: a number, not a string; kept as the text 20241105")
    }

    func testWaveformFlagsAcceptZeroAndOne() throws {
        let text = AHAPFixtures.singleEvent("""
        "EventType": "AudioCustom", "EventWaveformPath": "a.wav", "EventWaveformUseVolumeEnvelope": 1, "EventWaveformLoopEnabled": 0
        """)
        let event = try XCTUnwrap(AHAPFixtures.read(text)?.pattern.events.first)
        XCTAssertEqual(event.waveformUsesVolumeEnvelope, true)
        XCTAssertEqual(event.waveformLoopEnabled, false)
    }

    func testExamplesReadWithoutErrors() throws {
        for name in AHAPFixtures.exampleNames {
            let content = try AHAP.read(contentsOf: AHAPFixtures.example(name))
            XCTAssertFalse(content.pattern.events.isEmpty, name)
            if name != "real-world-quirks.ahap" && name != "bare-event.ahap" {
                XCTAssertEqual(content.warnings, [], name)
            }
        }
        let curves = try AHAP.read(contentsOf: AHAPFixtures.example("parameter-curves.ahap")).pattern
        XCTAssertEqual(curves.parameterCurves.map(\.controlPoints.count), [4, 2])
        let dynamic = try AHAP.read(contentsOf: AHAPFixtures.example("dynamic-parameters.ahap")).pattern
        XCTAssertEqual(dynamic.parameters.map(\.time), [0.5, 1.0, 1.5, 1.5])
        let audio = try AHAP.read(contentsOf: AHAPFixtures.example("audio-custom.ahap")).pattern
        XCTAssertEqual(audio.events.filter { $0.type == .audioCustom }.map(\.waveformPath), ["click.wav", "click.wav"])
    }
}
