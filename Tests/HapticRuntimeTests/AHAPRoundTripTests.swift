import HardwareMocks
import XCTest
@testable import HapticRuntime

/// read → write → read gives the same pattern, for the examples and for generated patterns.
final class AHAPRoundTripTests: XCTestCase {
    func testExamplesRoundTrip() throws {
        for name in AHAPFixtures.exampleNames {
            let first = try AHAP.read(contentsOf: AHAPFixtures.example(name)).pattern
            let written = AHAP.write(first)
            let second = try AHAP.read(text: written, file: name)
            XCTAssertEqual(second.pattern, first, name)
            XCTAssertEqual(second.warnings, [], name)
            XCTAssertEqual(AHAP.write(second.pattern), written, "writing is stable for \(name)")
        }
    }

    func testWrittenTextHasAStableLayout() {
        let pattern = HapticPattern(
            version: 1,
            metadata: ["Project": "p", "Description": "say \"hi\"\n"],
            events: [
                HapticEvent(type: .hapticContinuous, time: 0.5, duration: 1, parameters: [EventParameter(.hapticIntensity, 0.1)]),
                HapticEvent(type: .hapticTransient, time: 0),
            ],
            parameters: [DynamicParameter(.hapticIntensityControl, value: 0.5, time: 0.5)],
            parameterCurves: [ParameterCurve(.hapticSharpnessControl, time: 0.25, controlPoints: [ControlPoint(time: 0, value: -0.5)])])
        XCTAssertEqual(AHAP.write(pattern), #"""
        {
            "Version": 1.0,
            "Metadata": { "Description": "say \"hi\"\n", "Project": "p" },
            "Pattern": [
                {
                    "Event": { "Time": 0.0, "EventType": "HapticTransient" }
                },
                {
                    "ParameterCurve": {
                        "ParameterID": "HapticSharpnessControl",
                        "Time": 0.25,
                        "ParameterCurveControlPoints": [
                            { "Time": 0.0, "ParameterValue": -0.5 }
                        ]
                    }
                },
                {
                    "Event": {
                        "Time": 0.5,
                        "EventType": "HapticContinuous",
                        "EventDuration": 1.0,
                        "EventParameters": [
                            { "ParameterID": "HapticIntensity", "ParameterValue": 0.1 }
                        ]
                    }
                },
                {
                    "Parameter": { "ParameterID": "HapticIntensityControl", "Time": 0.5, "ParameterValue": 0.5 }
                }
            ]
        }

        """#)
    }

    func testNumbersReadBackExactly() throws {
        let awkward: [Double] = [0.1, 1.0 / 3, 1e-7, 123_456.789, .leastNonzeroMagnitude, 0.30000000000000004, 29.999999999999996]
        let pattern = HapticPattern(events: awkward.sorted().map { HapticEvent(type: .audioContinuous, time: $0, duration: $0) })
        XCTAssertEqual(try AHAP.read(text: AHAP.write(pattern), file: "n").pattern, pattern)
    }

    func testGeneratedPatternsRoundTrip() throws {
        var random = SplitMix64(seed: 0xA4A9)
        for iteration in 0..<300 {
            let pattern = Self.randomPattern(using: &random)
            let text = AHAP.write(pattern)
            let content = try AHAP.read(text: text, file: "generated-\(iteration).ahap")
            XCTAssertEqual(content.pattern, pattern, "iteration \(iteration):\n\(text)")
            XCTAssertEqual(content.warnings, [], "iteration \(iteration)")
        }
    }

    /// A pattern as the reader produces it: times in order, values in range, continuous haptic
    /// events of at most 30 s, waveform fields only on AudioCustom events.
    static func randomPattern(using random: inout SplitMix64) -> HapticPattern {
        func times(_ count: Int) -> [Double] {
            var time = 0.0
            return (0..<count).map { _ in
                time += Bool.random(using: &random) ? 0 : Double.random(in: 0..<2, using: &random)
                return time
            }
        }
        let metadataKeys = ["Project", "Created", "Description", "Ünïcode", "with \"quotes\""]
        var metadata: [String: String] = [:]
        for key in metadataKeys where Bool.random(using: &random) {
            metadata[key] = ["", "text", "line\nbreak\ttab", "emoji 🫨", "\u{01}control"].randomElement(using: &random) ?? ""
        }
        let events = times(Int.random(in: 0...8, using: &random)).map { time -> HapticEvent in
            let type = HapticEventType.allCases.randomElement(using: &random) ?? .hapticTransient
            var event = HapticEvent(type: type, time: time)
            switch type {
            case .hapticContinuous: event.duration = Double.random(in: 0...30, using: &random)
            case .audioContinuous: event.duration = Double.random(in: 0...100, using: &random)
            case .hapticTransient, .audioCustom:
                event.duration = Bool.random(using: &random) ? Double.random(in: 0...2, using: &random) : nil
            }
            event.parameters = EventParameterID.allCases.filter { _ in Bool.random(using: &random) }.map {
                EventParameter($0, Double.random(in: $0.range, using: &random))
            }
            if type == .audioCustom {
                event.waveformPath = "sounds/clip\(Int.random(in: 0...9, using: &random)).wav"
                event.waveformUsesVolumeEnvelope = [nil, true, false].randomElement(using: &random) ?? nil
                event.waveformLoopEnabled = [nil, true, false].randomElement(using: &random) ?? nil
            }
            return event
        }
        let parameters = times(Int.random(in: 0...4, using: &random)).map { time -> DynamicParameter in
            let id = DynamicParameterID.allCases.randomElement(using: &random) ?? .hapticIntensityControl
            return DynamicParameter(id, value: Double.random(in: id.range, using: &random), time: time)
        }
        let curves = times(Int.random(in: 0...3, using: &random)).map { time -> ParameterCurve in
            let id = DynamicParameterID.allCases.randomElement(using: &random) ?? .hapticIntensityControl
            let points = times(Int.random(in: 1...20, using: &random)).map {
                ControlPoint(time: $0, value: Double.random(in: id.range, using: &random))
            }
            return ParameterCurve(id, time: time, controlPoints: points)
        }
        let version: Double? = [nil, 1.0, 2.0, 1.5].randomElement(using: &random) ?? nil
        return HapticPattern(version: version, metadata: metadata, events: events, parameters: parameters, parameterCurves: curves)
    }
}
