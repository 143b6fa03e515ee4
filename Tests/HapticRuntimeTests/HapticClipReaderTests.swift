import Foundation
import XCTest
@testable import HapticRuntime

/// Reading `.haptic` v1: structure, every validation rule of Meta's legacy-compatibility mode with
/// its own message (JSON path, line:column, value, rule), and what is accepted with a warning.
final class HapticClipReaderTests: XCTestCase {
    private let twoPoints = #"{ "time": 0, "amplitude": 0.2 }, { "time": 0.5, "amplitude": 0.4 }"#

    func testAValidClipReadsWithEveryField() throws {
        let text = """
        { "version": { "major": 1, "minor": 2, "patch": 3 },
          "metadata": { "editor": "Meta Haptics Studio", "author": "a", "source": "s.wav", "project": "p", "tags": ["x", "y"], "description": "d" },
          "signals": { "continuous": { "envelopes": {
            "amplitude": [ { "time": 0, "amplitude": 0.1 }, { "time": 0.2, "amplitude": 0.5, "emphasis": { "amplitude": 0.9, "frequency": 0.3 } }, { "time": 1, "amplitude": 0 } ],
            "frequency": [ { "time": 0, "frequency": 0.4 }, { "time": 1, "frequency": 0.6 } ] } } } }
        """
        let content = try XCTUnwrap(HapticClipFixtures.read(text))
        let clip = try XCTUnwrap(content.clip)
        XCTAssertEqual(content.format, .haptic)
        XCTAssertEqual(clip.version, HapticClipVersion(major: 1, minor: 2, patch: 3))
        XCTAssertEqual(clip.metadata, HapticClipMetadata(editor: "Meta Haptics Studio", author: "a", source: "s.wav", project: "p", tags: ["x", "y"], description: "d"))
        XCTAssertEqual(clip.amplitude, [
            AmplitudeBreakpoint(time: 0, amplitude: 0.1),
            AmplitudeBreakpoint(time: 0.2, amplitude: 0.5, emphasis: Emphasis(amplitude: 0.9, frequency: 0.3)),
            AmplitudeBreakpoint(time: 1, amplitude: 0),
        ])
        XCTAssertEqual(clip.frequency, [FrequencyBreakpoint(time: 0, frequency: 0.4), FrequencyBreakpoint(time: 1, frequency: 0.6)])
        XCTAssertEqual(clip.duration, 1)
        XCTAssertEqual(clip.emphasisCount, 1)
        XCTAssertEqual(content.warnings, [])
    }

    func testUnknownKeysAreIgnoredAndMetadataAndFrequencyAreOptional() throws {
        let text = """
        { "version": { "major": 1, "minor": 0, "patch": 0, "build": 7 }, "editorState": { "zoom": 3 },
          "signals": { "continuous": { "envelopes": { "amplitude": [ { "time": 0, "amplitude": 0, "curve": "linear" }, { "time": 1, "amplitude": 1 } ] }, "gain": 1 } } }
        """
        let content = try XCTUnwrap(HapticClipFixtures.read(text))
        XCTAssertEqual(content.clip?.frequency, nil)
        XCTAssertEqual(content.clip?.metadata, HapticClipMetadata())
        XCTAssertEqual(content.warnings, [])
    }

    /// One broken rule per document, each with the message naming its path, position, value and rule.
    func testEveryValidationRuleHasItsOwnLocatedMessage() {
        let cases: [(rule: HapticClipRule, amplitude: String, frequency: String?, needle: String, occurrence: Int, message: String)] = [
            (.amplitudeInRange, #"{ "time": 0, "amplitude": 0.2 }, { "time": 0.5, "amplitude": 1.5 }"#, nil, "1.5", 1,
             "signals.continuous.envelopes.amplitude[1].amplitude is 1.5: an amplitude must be within 0…1"),
            (.amplitudeTimesInOrder, #"{ "time": 0.3, "amplitude": 0.2 }, { "time": 0.1, "amplitude": 0.4 }"#, nil, "0.1", 1,
             "signals.continuous.envelopes.amplitude[1].time is 0.1: amplitude breakpoint times must start at 0 or later and never decrease (the previous time is 0.3)"),
            (.amplitudeTimesInOrder, #"{ "time": -0.5, "amplitude": 0.2 }, { "time": 0.1, "amplitude": 0.4 }"#, nil, "-0.5", 1,
             "signals.continuous.envelopes.amplitude[0].time is -0.5: amplitude breakpoint times must start at 0 or later and never decrease (the previous time is 0.0)"),
            (.emphasisAmplitudeInRange, #"{ "time": 0, "amplitude": 0.2, "emphasis": { "amplitude": 2, "frequency": 0.5 } }, { "time": 1, "amplitude": 0 }"#, nil, #"2, "frequency""#, 1,
             "signals.continuous.envelopes.amplitude[0].emphasis.amplitude is 2.0: an emphasis amplitude must be within 0…1"),
            (.emphasisFrequencyInRange, #"{ "time": 0, "amplitude": 0.2, "emphasis": { "amplitude": 0.5, "frequency": -0.1 } }, { "time": 1, "amplitude": 0 }"#, nil, "-0.1", 1,
             "signals.continuous.envelopes.amplitude[0].emphasis.frequency is -0.1: an emphasis frequency must be within 0…1"),
            (.emphasisNotBelowBreakpoint, #"{ "time": 0, "amplitude": 0.2 }, { "time": 0.5, "amplitude": 0.6, "emphasis": { "amplitude": 0.4, "frequency": 0.5 } }, { "time": 1, "amplitude": 0 }"#, nil, "0.4", 1,
             "signals.continuous.envelopes.amplitude[1].emphasis.amplitude is 0.4: an emphasis amplitude must be at least its breakpoint's amplitude (the breakpoint's amplitude is 0.6)"),
            (.atLeastTwoAmplitudeBreakpoints, #"{ "time": 0, "amplitude": 0.2 }"#, nil, "[", 1,
             "signals.continuous.envelopes.amplitude: the amplitude envelope needs at least two breakpoints (it has 1)"),
            (.atLeastTwoAmplitudeBreakpoints, "", nil, "[", 1,
             "signals.continuous.envelopes.amplitude: the amplitude envelope needs at least two breakpoints (it has 0)"),
            (.amplitudeEnvelopeLasts, #"{ "time": 0.5, "amplitude": 0.2 }, { "time": 0.5, "amplitude": 0.4 }"#, nil, "[", 1,
             "signals.continuous.envelopes.amplitude: the amplitude envelope's last breakpoint must come after its first (a duration > 0) (it lasts 0.0)"),
            (.frequencyInRange, #"{ "time": 0, "amplitude": 0.2 }, { "time": 0.5, "amplitude": 0.4 }"#, #"{ "time": 0, "frequency": 1.01 }"#, "1.01", 1,
             "signals.continuous.envelopes.frequency[0].frequency is 1.01: a frequency must be within 0…1"),
            (.frequencyTimesInOrder, #"{ "time": 0, "amplitude": 0.2 }, { "time": 0.5, "amplitude": 0.4 }"#, #"{ "time": 0.2, "frequency": 0.1 }, { "time": 0.1, "frequency": 0.1 }"#, "0.1,", 1,
             "signals.continuous.envelopes.frequency[1].time is 0.1: frequency breakpoint times must start at 0 or later and never decrease (the previous time is 0.2)"),
        ]
        var rulesSeen = Set<HapticClipRule>()
        for example in cases {
            let text = HapticClipFixtures.document(amplitude: example.amplitude, frequency: example.frequency)
            guard let error = HapticClipFixtures.error(text) else { continue }
            XCTAssertEqual(error.rule, example.rule, error.description)
            // The frequency cases' needles sit in the frequency body, after the amplitude body.
            let occurrence = example.frequency != nil && example.needle != "[" ? Self.count(of: example.needle, in: example.amplitude) + example.occurrence : example.occurrence
            let position = HapticClipFixtures.position(of: example.needle, in: text, occurrence: occurrence)
            XCTAssertEqual(error.description, "clip.haptic:\(position): \(example.message)")
            rulesSeen.insert(example.rule)
        }
        XCTAssertEqual(rulesSeen, Set(HapticClipRule.allCases), "every rule is tested")
    }

    private static func count(of needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    func testARepeatedKeyIsPlayedWithItsLastValueAndAWarning() throws {
        // As AHAP does: the clip plays, and the file's author hears which value was not used.
        let text = HapticClipFixtures.document(amplitude: #"{ "time": 0, "amplitude": 0.2 }, { "time": 0.5, "amplitude": 0.4, "amplitude": 0.9 }"#)
        let content = try XCTUnwrap(HapticClipFixtures.read(text))
        XCTAssertEqual(content.warnings.map(\.description), [
            "clip.haptic:\(HapticClipFixtures.position(of: #""amplitude""#, in: text, occurrence: 4)): warning: signals.continuous.envelopes.amplitude[1].amplitude: appears more than once; the last value is used",
        ])
        XCTAssertEqual(content.clip?.amplitude.last?.amplitude, 0.9)
    }

    func testStrictModesRuleIsSkippedFrequencyPastTheEndIsClampedWithOneWarning() throws {
        let text = HapticClipFixtures.document(amplitude: twoPoints, frequency: #"{ "time": 0, "frequency": 0.2 }, { "time": 0.52, "frequency": 0.6 }, { "time": 0.6, "frequency": 0.8 }"#)
        let content = try XCTUnwrap(HapticClipFixtures.read(text))
        XCTAssertEqual(content.warnings.map(\.description), [
            "clip.haptic:\(HapticClipFixtures.position(of: "0.52", in: text)): warning: signals.continuous.envelopes.frequency[1]: 2 frequency breakpoint(s) after the amplitude envelope's end at 0.5 s (up to 0.6 s); clamped to it",
        ])
        // The clip keeps them as written; the pattern ends with the amplitude envelope.
        XCTAssertEqual(content.clip?.frequency?.count, 3)
        XCTAssertEqual(content.pattern.duration, 0.5, accuracy: 1e-12)
        let sharpness = content.pattern.parameterCurves.filter { $0.id == .hapticSharpnessControl }
        let last = try XCTUnwrap(sharpness.last?.controlPoints.last)
        XCTAssertEqual(sharpness.last!.time + last.time, 0.5, accuracy: 1e-12)
        // 0.2 → 0.6 over 0…0.52, at 0.5: 0.2 + 0.4 × 0.5 / 0.52; the curve holds its square root.
        XCTAssertEqual(last.value, (0.2 + 0.4 * 0.5 / 0.52).squareRoot(), accuracy: 1e-12)
    }

    func testVersionOtherThanOneSaysWhichVersionsAreRead() {
        let text = HapticClipFixtures.document(amplitude: twoPoints, version: #"{ "major": 2, "minor": 0, "patch": 0 }"#)
        XCTAssertEqual(HapticClipFixtures.error(text)?.description,
                       "clip.haptic:\(HapticClipFixtures.position(of: "2,", in: text)): version.major: .haptic version 2 is not read; this reader reads version 1 (1.x.y) files")
    }

    func testStructuralErrorsNameThePathAndPosition() {
        let noSignals = #"{ "version": { "major": 1, "minor": 0, "patch": 0 } }"#
        XCTAssertEqual(HapticClipFixtures.error(noSignals)?.description, "clip.haptic:1:1: signals is missing")
        let noVersion = #"{ "signals": { "continuous": { "envelopes": { "amplitude": [] } } } }"#
        XCTAssertEqual(HapticClipFixtures.error(noVersion)?.description, "clip.haptic:1:1: version is missing")
        let stringTime = HapticClipFixtures.document(amplitude: #"{ "time": "0", "amplitude": 0.2 }, { "time": 1, "amplitude": 0 }"#)
        XCTAssertEqual(HapticClipFixtures.error(stringTime)?.description,
                       "clip.haptic:\(HapticClipFixtures.position(of: "\"0\"", in: stringTime)): signals.continuous.envelopes.amplitude[0].time: expected a number, found a string")
        let missingAmplitude = HapticClipFixtures.document(amplitude: #"{ "time": 0 }, { "time": 1, "amplitude": 0 }"#)
        XCTAssertEqual(HapticClipFixtures.error(missingAmplitude)?.description,
                       "clip.haptic:\(HapticClipFixtures.position(of: "{ \"time\": 0 }", in: missingAmplitude)): signals.continuous.envelopes.amplitude[0].amplitude is missing")
        let notAnArray = #"{ "version": { "major": 1 }, "signals": { "continuous": { "envelopes": { "amplitude": {} } } } }"#
        XCTAssertEqual(HapticClipFixtures.error(notAnArray)?.description,
                       "clip.haptic:\(HapticClipFixtures.position(of: "{}", in: notAnArray)): signals.continuous.envelopes.amplitude: expected an array, found an object")
    }

    func testNonFiniteNumbersAreSyntaxErrorsWithTheirPosition() {
        // After a minus sign the reader stops at the letter that is not a digit.
        for (literal, offender) in [("NaN", "NaN"), ("Infinity", "Infinity"), ("-Infinity", "Infinity")] {
            let text = HapticClipFixtures.document(amplitude: #"{ "time": 0, "amplitude": \#(literal) }, { "time": 1, "amplitude": 0 }"#)
            let error = HapticClipFixtures.error(text)
            XCTAssertEqual(error?.location?.description, "clip.haptic:\(HapticClipFixtures.position(of: offender, in: text))", "\(literal)")
        }
        let huge = HapticClipFixtures.document(amplitude: #"{ "time": 1e999, "amplitude": 0 }, { "time": 1, "amplitude": 0 }"#)
        XCTAssertEqual(HapticClipFixtures.error(huge)?.description, "clip.haptic:\(HapticClipFixtures.position(of: "1e999", in: huge)): number 1e999 is too large")
    }

    func testAMillionBreakpointsReadCorrectly() throws {
        let count = 1_000_000
        var body = ""
        body.reserveCapacity(count * 40)
        for index in 0..<count {
            if index > 0 { body += "," }
            body += #"{"time":\#(Double(index) / 1000),"amplitude":\#(index % 2)}"#
        }
        let content = try XCTUnwrap(HapticClipFixtures.read(HapticClipFixtures.document(amplitude: body)))
        XCTAssertEqual(content.clip?.amplitude.count, count)
        XCTAssertEqual(content.clip?.duration ?? 0, Double(count - 1) / 1000, accuracy: 1e-9)
        // 1,000,000 control points in curves of at most 16, each starting on the last one's end.
        let curves = content.pattern.parameterCurves
        XCTAssertTrue(curves.allSatisfy { $0.controlPoints.count <= 16 })
        XCTAssertEqual(curves.reduce(0) { $0 + $1.controlPoints.count } - (curves.count - 1), count)
    }

    func testTheExampleClipReads() throws {
        let content = try HapticClip.read(contentsOf: HapticClipFixtures.examplesFolder.appendingPathComponent("haptic/impact-rumble.haptic"))
        XCTAssertEqual(content.clip?.emphasisCount, 2)
        XCTAssertEqual(content.warnings.count, 1, "its frequency envelope runs past the end")
    }

    func testContentLoaderRecognisesClipsByExtensionAndByContent() throws {
        let folder = try TemporaryFolder()
        let text = HapticClipFixtures.document(amplitude: twoPoints)
        for name in ["clip.haptic", "clip.json", "clip.data", "clip"] {
            let url = try folder.write(text, to: name)
            XCTAssertEqual(try ContentLoader.format(of: url), .haptic, name)
            XCTAssertEqual(try ContentLoader.load(contentsOf: url).clip?.amplitude.count, 2, name)
        }
        XCTAssertEqual(try ContentLoader.load(data: Data(text.utf8), file: "<stdin>").format, .haptic)
        let ahap = #"{ "Version": 1, "Pattern": [ { "Event": { "Time": 0, "EventType": "HapticTransient" } } ] }"#
        XCTAssertEqual(try ContentLoader.load(data: Data(ahap.utf8), file: "<stdin>").format, .ahap)
        XCTAssertEqual(try ContentLoader.load(data: Data(#"["selection"]"#.utf8), file: "<stdin>").format, .notes)
        XCTAssertThrowsError(try ContentLoader.load(data: Data("loud sharp".utf8), file: "<stdin>")) { error in
            XCTAssertTrue("\(error)".hasPrefix("<stdin>: not a sound file, AHAP, .haptic or notes JSON"), "\(error)")
        }
    }

    func testAFileOverTheSizeCapIsRefusedBeforeItIsRead() throws {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("huge.haptic")
        // A sparse file: a gigabyte long without a gigabyte written.
        XCTAssertTrue(FileManager.default.createFile(atPath: url.path, contents: nil))
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 1 << 30)
        try handle.close()
        XCTAssertThrowsError(try ContentLoader.load(contentsOf: url)) { error in
            XCTAssertEqual("\(error)", "\(url.relativePath): cannot read the file: it is 1024.0 MiB, more than the 64.0 MiB a content file may have")
        }
    }

    func testAPipeOrADeviceIsRefusedAsNotAFile() throws {
        let folder = try TemporaryFolder()
        let fifo = folder.url.appendingPathComponent("pattern.ahap")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        for url in [fifo, URL(fileURLWithPath: "/dev/null")] {
            XCTAssertThrowsError(try ContentLoader.load(contentsOf: url)) { error in
                XCTAssertEqual("\(error)", "\(url.relativePath): cannot read the file: it is a pipe or a device, not a file")
            }
        }
    }
}
