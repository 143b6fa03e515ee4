import ActuatorHAL
import XCTest
@testable import HapticRuntime

final class NotesTests: XCTestCase {
    /// Hand-written expectations for every note: LRA steps, ERM steps, event count, duration.
    private let expected: [(Note, lra: [SequencerStep], erm: [SequencerStep], events: Int, duration: Double)] = [
        (.hapticFeedback(.impact(.light)), [.effect(3)], [.effect(8)], 1, 0.1),
        (.hapticFeedback(.impact(.medium)), [.effect(2)], [.effect(2)], 1, 0.1),
        (.hapticFeedback(.impact(.heavy)), [.effect(1)], [.effect(1)], 1, 0.1),
        (.hapticFeedback(.impact(.soft)), [.effect(7)], [.effect(7)], 1, 0.1),
        (.hapticFeedback(.impact(.rigid)), [.effect(4)], [.effect(4)], 1, 0.1),
        (.hapticFeedback(.notification(.success)), [.effect(2), .wait(.milliseconds(80)), .effect(1)], [.effect(2), .wait(.milliseconds(80)), .effect(1)], 2, 0.2),
        (.hapticFeedback(.notification(.warning)), [.effect(1), .wait(.milliseconds(130)), .effect(2)], [.effect(1), .wait(.milliseconds(130)), .effect(2)], 2, 0.25),
        (.hapticFeedback(.notification(.failure)),
         [.effect(1), .wait(.milliseconds(90)), .effect(1), .wait(.milliseconds(90)), .effect(2), .wait(.milliseconds(90)), .effect(3)],
         [.effect(1), .wait(.milliseconds(90)), .effect(1), .wait(.milliseconds(90)), .effect(2), .wait(.milliseconds(90)), .effect(3)], 4, 0.5),
        (.hapticFeedback(.selection), [.effect(24)], [.effect(21)], 1, 0.05),
        (.tapticEngine(.peek), [.effect(8)], [.effect(8)], 1, 0.1),
        (.tapticEngine(.pop), [.effect(7)], [.effect(7)], 1, 0.1),
        (.tapticEngine(.cancelled), [.effect(8), .wait(.milliseconds(100)), .effect(8), .wait(.milliseconds(100)), .effect(8)], [.effect(8), .wait(.milliseconds(100)), .effect(8), .wait(.milliseconds(100)), .effect(8)], 3, 0.4),
        (.tapticEngine(.tryAgain), [.effect(8), .wait(.milliseconds(130)), .effect(7)], [.effect(8), .wait(.milliseconds(130)), .effect(7)], 2, 0.3),
        (.tapticEngine(.failed), [.effect(7), .wait(.milliseconds(100)), .effect(7), .wait(.milliseconds(100)), .effect(7)], [.effect(7), .wait(.milliseconds(100)), .effect(7), .wait(.milliseconds(100)), .effect(7)], 3, 0.4),
        (.vibration(.default), [.effect(16)], [.effect(16)], 1, 1.0),
        (.vibration(.alert), [.effect(47), .wait(.milliseconds(100)), .effect(47)], [.effect(47), .wait(.milliseconds(100)), .effect(47)], 2, 0.5),
    ]

    func testEveryNoteInTheTableMapsAsDocumented() throws {
        XCTAssertEqual(NoteMapping.table.count, expected.count)
        for (note, lra, erm, eventCount, duration) in expected {
            let mapping = try XCTUnwrap(NoteMapping.mapping(for: note), "\(note)")
            XCTAssertEqual(mapping.lraSteps, lra, "\(note)")
            XCTAssertEqual(mapping.ermSteps, erm, "\(note)")
            XCTAssertEqual(mapping.events.count, eventCount, "\(note)")
            XCTAssertEqual(mapping.duration, duration, accuracy: 1e-12, "\(note)")
            XCTAssertEqual(NoteMapping.mapping(named: mapping.name)?.note, note)

            let pattern = HapticPattern(notes: [note])
            XCTAssertEqual(pattern.duration, duration, accuracy: 1e-9, "pattern of \(note) lasts the note's duration")
            XCTAssertEqual(pattern.events.count, eventCount)
            for event in pattern.events {
                XCTAssertEqual(event.romCue?.steps(for: .lra), lra)
                XCTAssertEqual(event.romCue?.steps(for: .ermC), erm)
                XCTAssertNil(event.romCue?.steps(for: .empty))
                XCTAssertLessThanOrEqual(event.soundingEnd, duration + 1e-9, "events fit inside the note")
            }
        }
    }

    func testEveryTableEntryFitsTheDRV2605Sequencer() {
        for mapping in NoteMapping.table {
            for steps in [mapping.lraSteps, mapping.ermSteps] {
                XCTAssertLessThanOrEqual(steps.count, 8, mapping.name)
                for step in steps {
                    switch step {
                    case .effect(let id): XCTAssertTrue(ROMLibrary.effectIDs.contains(id), mapping.name)
                    case .wait(let pause):
                        XCTAssertGreaterThanOrEqual(pause, .milliseconds(10), mapping.name)
                        XCTAssertLessThanOrEqual(pause, .milliseconds(1270), mapping.name)
                        XCTAssertEqual(pause.components.attoseconds % 10_000_000_000_000_000, 0, "10 ms steps")
                    }
                }
            }
        }
    }

    func testPianoFixedDurations() {
        let durations: [Note: Double] = [
            .hapticFeedback(.notification(.success)): 0.2, .hapticFeedback(.notification(.warning)): 0.25,
            .hapticFeedback(.notification(.failure)): 0.5, .hapticFeedback(.impact(.light)): 0.1,
            .hapticFeedback(.impact(.medium)): 0.1, .hapticFeedback(.impact(.heavy)): 0.1,
            .hapticFeedback(.selection): 0.05,
        ]
        for (note, duration) in durations {
            XCTAssertEqual(NoteMapping.mapping(for: note)?.duration, duration, "\(note)")
        }
    }

    func testWaitsAndWaitUntilFinishedFollowPianoTiming() {
        let pattern = HapticPattern(notes: [
            .hapticFeedback(.impact(.heavy)),
            .wait(0.2),
            .hapticFeedback(.notification(.success)),
            .waitUntilFinished,
            .hapticFeedback(.selection),
            .sound(.file(name: "beep", extension: "wav")),
            .waitUntilFinished,
            .tapticEngine(.pop),
        ])
        let starts = pattern.events.map(\.time)
        // heavy 0; success 0.2 and 0.3; selection at 0.2 + 0.2; the sound and pop at 0.4 (a sound finishes at once).
        XCTAssertEqual(starts.count, 6)
        for (start, expected) in zip(starts, [0, 0.2, 0.3, 0.4, 0.4, 0.4]) {
            XCTAssertEqual(start, expected, accuracy: 1e-12)
        }
        XCTAssertEqual(pattern.events[4].type, .audioCustom)
        XCTAssertEqual(pattern.events[4].waveformPath, "beep.wav")
        XCTAssertEqual(Set(pattern.events.compactMap { $0.romCue?.group }), [0, 1, 2, 3])
        XCTAssertEqual(pattern.duration, 0.5, accuracy: 1e-9)
    }

    func testNotesPlayTogetherWithoutAWait() {
        let pattern = HapticPattern(notes: [.hapticFeedback(.impact(.light)), .hapticFeedback(.impact(.heavy)), .wait(-3)])
        XCTAssertEqual(pattern.events.map(\.time), [0, 0])
    }

    func testMarkdownTableHasARowPerNote() {
        let markdown = NoteMapping.markdownTable()
        let rows = markdown.split(separator: "\n")
        XCTAssertEqual(rows.count, NoteMapping.table.count + 2)
        XCTAssertTrue(markdown.contains("| `.hapticFeedback(.notification(.success))` | `notification.success` | 2, wait 0.08 s, 1 |"))
        XCTAssertTrue(markdown.contains("| `.vibration(.default)` | `vibration.default` | 16 | 16 | 0: 1 s hum 1/0.3 | 1 s |"))
    }

    // MARK: files

    func testTextFileWithCommentsAndValues() throws {
        let text = """
        # greeting
        impact.heavy
        wait 0.2   # pause
        notification.success

        waitUntilFinished
        sound beep one.wav
        taptic.tryAgain
        vibration.alert
        wait 0.05s
        """
        let notes = try NotesFile.parse(text, file: "hello.notes")
        XCTAssertEqual(notes, [
            .hapticFeedback(.impact(.heavy)), .wait(0.2), .hapticFeedback(.notification(.success)),
            .waitUntilFinished, .sound(.file(name: "beep one", extension: "wav")), .tapticEngine(.tryAgain),
            .vibration(.alert), .wait(0.05),
        ])
    }

    func testJSONFile() throws {
        let json = #"["impact.heavy", {"wait": 0.2}, "notification.success", "waitUntilFinished", {"sound": "a\"b.wav"}, "selection"]"#
        XCTAssertEqual(try NotesFile.parse(json, file: "x.json"), [
            .hapticFeedback(.impact(.heavy)), .wait(0.2), .hapticFeedback(.notification(.success)),
            .waitUntilFinished, .sound(.file(name: "a\"b", extension: "wav")), .hapticFeedback(.selection),
        ])
        XCTAssertEqual(try NotesFile.parse("  [ ]", file: "x.json"), [])
    }

    func testTextErrorsNameFileLineAndColumn() {
        assertError("impact.heavy\n  impact.huge\n", "n.notes:2:3: error: unknown note 'impact.huge'; expected one of: impact.light,")
        assertError("wait\n", "n.notes:1:5: error: 'wait' needs a value")
        assertError("# c\nwait  -1\n", "n.notes:2:7: error: wait needs a non-negative number of seconds, got '-1'")
        assertError("wait 0.1 0.2\n", "n.notes:1:10: error: unexpected '0.2' after the note")
        assertError("selection now\n", "n.notes:1:11: error: unexpected 'now' after the note")
        assertError("sound   # nothing\n", "n.notes:1:6: error: 'sound' needs a value")
        assertError("impact.light\r\nbad\r\n", "n.notes:2:1: error: unknown note 'bad'")
    }

    func testJSONErrorsNameFileLineAndColumn() {
        assertError("[\n  \"impact.heavy\",\n  \"impact.huge\"\n]", "n.notes:3:3: error: unknown note 'impact.huge'")
        assertError("[\"selection\",\n  {\"wait\": \"soon\"}]", "n.notes:2:12: error: wait needs a non-negative number of seconds, got 'a string'")
        assertError("[{\"wait\": -0.5}]", "n.notes:1:11: error: wait needs a non-negative number of seconds")
        assertError("[{\"pause\": 1}]", "n.notes:1:3: error: unknown key \"pause\"")
        assertError("[{\"wait\": 1, \"sound\": \"a\"}]", "n.notes:1:2: error: a note object has exactly one key")
        assertError("[\"selection\" \"pop\"]", "n.notes:1:14: error: expected ',' or ']' after array element, found '\"'")
        assertError("[\"selection\",\n 42]", "n.notes:2:2: error: a note is a name string or a {\"wait\": …} / {\"sound\": …} object, not a number")
        assertError("[\"selection\"", "n.notes:1:13: error: expected ',' or ']' after array element, found the end of the text")
        assertError("[\"sel\nection\"]", "n.notes:1:6: error: control character in a string")
        assertError("[\"selection\"] x", "n.notes:1:15: error: unexpected 'x' after the end of the JSON value")
        assertError(String(repeating: "[", count: 200), "n.notes:1:129: error: arrays and objects nested deeper than 128 levels")
    }

    private func assertError(_ text: String, _ prefix: String, file: StaticString = #filePath, line: UInt = #line) {
        do {
            let notes = try NotesFile.parse(text, file: "n.notes")
            XCTFail("parsed \(notes)", file: file, line: line)
        } catch {
            XCTAssertTrue(error.description.hasPrefix(prefix), "got: \(error.description)", file: file, line: line)
        }
    }
}
