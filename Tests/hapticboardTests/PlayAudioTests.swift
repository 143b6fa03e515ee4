import Foundation
import XCTest

/// The sound `hapticboard play` plays beside the haptics, checked through its JSON summary.
final class PlayAudioTests: XCTestCase {
    private func play(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let run = try BuiltCommand().run(["play", "--fast", "--quiet", "--json"] + arguments)
        XCTAssertEqual(run.status, 0, run.errorOutput, file: file, line: line)
        return try run.json(file: file, line: line)
    }

    func testSoundsStartWithinAMillisecondOfTheirHapticDeadlinesOnTheSimBoard() throws {
        let summary = try play([BuiltCommand.path("Examples/ahap/audio-custom.ahap")])
        let audio = try XCTUnwrap(summary["audio"] as? [String: Any], "\(summary)")
        XCTAssertEqual(audio["simulated"] as? Bool, true)
        XCTAssertEqual(audio["underruns"] as? Int, 0)
        XCTAssertEqual((audio["problems"] as? [Any])?.count, 0)
        let onsets = try XCTUnwrap(audio["onsets"] as? [[String: Any]])
        // The file's two AudioCustom events sit beside its haptic events at 0 s and 0.5 s.
        let deadlines = try onsets.map { try XCTUnwrap($0["deadlineSeconds"] as? Double) }
        XCTAssertEqual(deadlines.count, 2)
        for (deadline, expected) in zip(deadlines, [0, 0.5]) { XCTAssertEqual(deadline, expected, accuracy: 1e-6) }
        for onset in onsets {
            let offset = try XCTUnwrap(onset["offsetMicroseconds"] as? Double)
            XCTAssertLessThan(abs(offset), 1_000, "\(onset)")
        }
        XCTAssertLessThan(try XCTUnwrap(audio["maximumOffsetMicroseconds"] as? Double), 1_000)
    }

    func testPlayedAudioEventsAreNotReportedAsUnplayed() throws {
        // Without --quiet, so content and compiler warnings are printed.
        let run = try BuiltCommand().run(["play", "--fast", "--json", BuiltCommand.path("Examples/ahap/audio-custom.ahap")])
        XCTAssertEqual(run.status, 0, run.errorOutput)
        XCTAssertFalse(run.errorOutput.contains("not played"), run.errorOutput)
    }

    func testAFileOfSoundsOnlyPlaysItsSound() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hapticboard-sound-only-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(atPath: BuiltCommand.path("Examples/ahap/click.wav"), toPath: folder.appendingPathComponent("click.wav").path)
        let file = folder.appendingPathComponent("sound-only.ahap")
        try Data(#"{"Pattern":[{"Event":{"Time":0.1,"EventType":"AudioCustom","EventWaveformPath":"click.wav"}}]}"#.utf8).write(to: file)
        let summary = try play([file.path])
        let audio = try XCTUnwrap(summary["audio"] as? [String: Any], "\(summary)")
        let onsets = try XCTUnwrap(audio["onsets"] as? [[String: Any]])
        XCTAssertEqual(onsets.count, 1, "\(audio)")
        XCTAssertEqual(try XCTUnwrap(onsets.first?["deadlineSeconds"] as? Double), 0.1, accuracy: 1e-6)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(summary["elapsedSeconds"] as? Double), 0.1, "playback lasted until the sound")
        XCTAssertEqual((summary["transitions"] as? [[String: Any]])?.count, 0, "nothing for the chip, so it was not woken: \(summary)")
    }

    func testNoAudioPlaysNoSound() throws {
        let summary = try play(["--no-audio", BuiltCommand.path("Examples/ahap/audio-custom.ahap")])
        XCTAssertNil(summary["audio"], "\(summary)")
        XCTAssertEqual(summary["events"] as? Int, 2)
    }

    func testHapticOnlyContentOpensNoSoundOutput() throws {
        let summary = try play([BuiltCommand.path("Examples/ahap/transients.ahap")])
        XCTAssertNil(summary["audio"], "\(summary)")
    }

    func testWaveformsResolveBesideTheContentFileFromAnyDirectory() throws {
        // Run from the package root, the file's sounds are still found in Examples/ahap/.
        let summary = try play([BuiltCommand.path("Examples/ahap/transients.ahap"), BuiltCommand.path("Examples/ahap/audio-custom.ahap")])
        let audio = try XCTUnwrap(summary["audio"] as? [String: Any])
        XCTAssertEqual((audio["onsets"] as? [Any])?.count, 2)
        XCTAssertEqual((audio["problems"] as? [Any])?.count, 0, "\(audio)")
    }
}
