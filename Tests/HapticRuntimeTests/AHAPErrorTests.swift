import Foundation
import XCTest
@testable import HapticRuntime

/// Each error kind, with its exact location and key path.
final class AHAPErrorTests: XCTestCase {
    private func assertError(
        _ text: String, _ description: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        guard let error = AHAPFixtures.error(text, file: file, line: line) else { return }
        XCTAssertEqual(error.description, description, file: file, line: line)
    }

    func testBrokenJSONNamesFileLineAndColumn() {
        let text = """
        {
          "Pattern": [
            { "Event": { "Time": 0, "EventType": "HapticTransient" } }
            { "Event": { "Time": 1, "EventType": "HapticTransient" } }
          ]
        }
        """
        let error = AHAPFixtures.error(text)
        XCTAssertEqual(error?.description, "test.ahap:4:5: expected ',' or ']' after array element, found '{'")
        XCTAssertEqual(error?.location, AHAPSourceLocation(file: "test.ahap", line: 4, column: 5))
        XCTAssertNil(error?.keyPath)
    }

    func testWrongTypeNamesTheKeyPathWithIndices() {
        let text = """
        { "Pattern": [
          { "Event": { "Time": 0, "EventType": "HapticTransient" } },
          { "Event": { "Time": 0.1, "EventType": "HapticTransient" } },
          { "Parameter": { "ParameterID": "HapticIntensityControl", "ParameterValue": 0.5 } },
          { "Event": { "Time": 0.2, "EventType": "HapticTransient", "EventParameters": [
              { "ParameterID": "HapticIntensity", "ParameterValue": "loud" } ] } }
        ] }
        """
        let error = AHAPFixtures.error(text)
        XCTAssertEqual(error?.keyPath?.description, "Pattern[3].Event.EventParameters[0].ParameterValue")
        XCTAssertEqual(error?.description,
                       "test.ahap:6:61: Pattern[3].Event.EventParameters[0].ParameterValue: expected a number, found a string")
    }

    func testWrongTypesAtEveryLevel() {
        assertError("[]", "test.ahap:1:1: (top level): expected an object, found an array")
        assertError(#"{ "Version": true }"#, "test.ahap:1:14: Version: expected a number, found a boolean")
        assertError(#"{ "Metadata": [] }"#, "test.ahap:1:15: Metadata: expected an object, found an array")
        assertError(#"{ "Pattern": {} }"#, "test.ahap:1:14: Pattern: expected an array, found an object")
        assertError(#"{ "Pattern": [ 3 ] }"#, "test.ahap:1:16: Pattern[0]: expected an object, found a number")
        assertError(AHAPFixtures.singleEvent(#""EventType": 1"#),
                    "test.ahap:3:31: Pattern[0].Event.EventType: expected a string, found a number")
        assertError(AHAPFixtures.singleEvent(#""EventType": "HapticTransient", "Time": "0""#),
                    "test.ahap:3:58: Pattern[0].Event.Time: expected a number, found a string")
        assertError(AHAPFixtures.singleEvent(#""EventType": "HapticTransient", "EventParameters": {}"#),
                    "test.ahap:3:69: Pattern[0].Event.EventParameters: expected an array, found an object")
        assertError(AHAPFixtures.singleEvent(#""EventType": "AudioCustom", "EventWaveformPath": "a.wav", "EventWaveformLoopEnabled": "yes""#),
                    "test.ahap:3:104: Pattern[0].Event.EventWaveformLoopEnabled: expected a boolean, found a string")
        assertError(#"{ "Pattern": [ { "ParameterCurve": { "ParameterID": "AudioPanControl", "ParameterCurveControlPoints": [ null ] } } ] }"#,
                    "test.ahap:1:105: Pattern[0].ParameterCurve.ParameterCurveControlPoints[0]: expected an object, found null")
    }

    func testUnknownEventTypeListsTheAllowedNamesAndSuggestsTheNearest() {
        let allowed = "allowed: HapticTransient, HapticContinuous, AudioContinuous, AudioCustom"
        assertError(AHAPFixtures.singleEvent(#""EventType": "hapticTransient""#),
                    #"test.ahap:3:31: Pattern[0].Event.EventType: unknown event type "hapticTransient" (did you mean "HapticTransient"?); "# + allowed)
        assertError(AHAPFixtures.singleEvent(#""EventType": "HapticContinous""#),
                    #"test.ahap:3:31: Pattern[0].Event.EventType: unknown event type "HapticContinous" (did you mean "HapticContinuous"?); "# + allowed)
        assertError(AHAPFixtures.singleEvent(#""EventType": "Rumble""#),
                    #"test.ahap:3:31: Pattern[0].Event.EventType: unknown event type "Rumble"; "# + allowed)
        let error = AHAPFixtures.error(AHAPFixtures.singleEvent(#""EventType": "hapticTransient""#))
        XCTAssertEqual(error, .unknownEventType(
            AHAPSourceLocation(file: "test.ahap", line: 3, column: 31),
            keyPath: AHAPKeyPath([.key("Pattern"), .index(0), .key("Event"), .key("EventType")]),
            name: "hapticTransient", suggestion: "HapticTransient"))
    }

    func testUnknownParameterIDListsTheNamesAllowedThere() {
        let eventText = AHAPFixtures.singleEvent(#""EventType": "HapticTransient", "EventParameters": [ { "ParameterID": "HapticIntensityControl", "ParameterValue": 1 } ]"#)
        let eventError = AHAPFixtures.error(eventText)
        XCTAssertEqual(eventError?.location?.description, "test.ahap:3:88")
        XCTAssertEqual(eventError?.description.contains("allowed here: " + EventParameterID.allCases.map(\.rawValue).joined(separator: ", ")), true)
        let dynamicText = #"{ "Pattern": [ { "Parameter": { "ParameterID": "HapticIntensity", "ParameterValue": 1 } } ] }"#
        guard case .unknownParameterID(let location, let keyPath, let name, let allowed, let suggestion)? = AHAPFixtures.error(dynamicText) else {
            return XCTFail("expected unknownParameterID")
        }
        XCTAssertEqual(location.description, "test.ahap:1:48")
        XCTAssertEqual(keyPath.description, "Pattern[0].Parameter.ParameterID")
        XCTAssertEqual(name, "HapticIntensity")
        XCTAssertEqual(allowed, DynamicParameterID.allCases.map(\.rawValue))
        XCTAssertEqual(suggestion, "HapticIntensityControl")
        XCTAssertEqual(eventError?.description.contains(#"unknown parameter "HapticIntensityControl" (did you mean "HapticIntensity"?)"#), true)
        let unrelated = #"{ "Pattern": [ { "Parameter": { "ParameterID": "Loudness", "ParameterValue": 1 } } ] }"#
        guard case .unknownParameterID(_, _, _, _, let none)? = AHAPFixtures.error(unrelated) else {
            return XCTFail("expected unknownParameterID")
        }
        XCTAssertNil(none)
        let typo = #"{ "Pattern": [ { "Parameter": { "ParameterID": "HapticIntensityControll", "ParameterValue": 1 } } ] }"#
        guard case .unknownParameterID(_, _, _, _, let nearest)? = AHAPFixtures.error(typo) else {
            return XCTFail("expected unknownParameterID")
        }
        XCTAssertEqual(nearest, "HapticIntensityControl")
    }

    func testNegativeTimesAndDurationsAreErrors() {
        assertError(AHAPFixtures.singleEvent(#""EventType": "HapticTransient", "Time": -0.5"#),
                    "test.ahap:3:58: Pattern[0].Event.Time must not be negative (it is -0.5)")
        assertError(AHAPFixtures.singleEvent(#""EventType": "HapticContinuous", "EventDuration": -1"#),
                    "test.ahap:3:68: Pattern[0].Event.EventDuration must not be negative (it is -1.0)")
        assertError(#"{ "Pattern": [ { "Parameter": { "ParameterID": "AudioPanControl", "Time": -2 } } ] }"#,
                    "test.ahap:1:75: Pattern[0].Parameter.Time must not be negative (it is -2.0)")
        assertError(#"{ "Pattern": [ { "ParameterCurve": { "ParameterID": "AudioPanControl", "ParameterCurveControlPoints": [ { "Time": -0.1 } ] } } ] }"#,
                    "test.ahap:1:115: Pattern[0].ParameterCurve.ParameterCurveControlPoints[0].Time must not be negative (it is -0.1)")
    }

    func testMissingRequiredKeysAreErrorsAtTheEnclosingObject() {
        assertError(AHAPFixtures.singleEvent(#""Time": 0"#), "test.ahap:3:16: Pattern[0].Event.EventType is missing")
        assertError(#"{ "Pattern": [ { "Parameter": { "ParameterValue": 1 } } ] }"#,
                    "test.ahap:1:31: Pattern[0].Parameter.ParameterID is missing")
        assertError(AHAPFixtures.singleEvent(#""EventType": "AudioCustom""#),
                    "test.ahap:3:16: Pattern[0].Event.EventWaveformPath is missing")
    }

    func testPatternElementsMustHoldExactlyOneKind() {
        assertError(#"{ "Pattern": [ { "Time": 0 } ] }"#,
                    "test.ahap:1:16: Pattern[0] must hold exactly one of Event, Parameter or ParameterCurve; it holds none of them")
        assertError(#"{ "Pattern": [ { "Event": {}, "Parameter": {} } ] }"#,
                    "test.ahap:1:16: Pattern[0] must hold exactly one of Event, Parameter or ParameterCurve; it holds Event and Parameter")
    }

    func testAbsurdlyLongContinuousEventsAreRefused() {
        assertError(AHAPFixtures.singleEvent(#""EventType": "HapticContinuous", "EventDuration": 1e300"#),
                    "test.ahap:3:68: Pattern[0].Event.EventDuration 1e+300 s is longer than the 3600.0 s this reader accepts for a continuous event")
    }

    func testUnreadableFiles() throws {
        let folder = try TemporaryFolder()
        let missing = folder.url.appendingPathComponent("missing.ahap")
        XCTAssertThrowsError(try AHAP.read(contentsOf: missing)) { error in
            guard case .unreadableFile(let file, _)? = error as? AHAPError else { return XCTFail("\(error)") }
            XCTAssertEqual(file, missing.relativePath)
        }
        let binary = folder.url.appendingPathComponent("binary.ahap")
        try Data([0x7B, 0xFF, 0xFE, 0x7D]).write(to: binary)
        XCTAssertThrowsError(try AHAP.read(contentsOf: binary)) { error in
            XCTAssertEqual((error as? AHAPError)?.description, "\(binary.relativePath): cannot read the file: it is not UTF-8 text")
        }
    }
}
