import Foundation
import XCTest

/// `convert`, and `play`, `inspect` and `render` on the content designers bring: `.haptic` clips,
/// AHAP files whose sound is missing, and sounds.
final class ContentCommandTests: XCTestCase {
    private func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("content-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder
    }

    /// An AHAP file with two taps and an AudioCustom event whose WAV is not beside it.
    private func ahapWithMissingSound() throws -> String {
        let file = try folder().appendingPathComponent("exported.ahap")
        try """
        { "Version": 1, "Pattern": [
          { "Event": { "Time": 0, "EventType": "HapticTransient" } },
          { "Event": { "Time": 0.1, "EventType": "AudioCustom", "EventWaveformPath": "boom.wav" } },
          { "Event": { "Time": 0.2, "EventType": "HapticTransient" } } ] }
        """.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    /// `line:column` of `needle` in the file at `path`.
    private func position(of needle: String, inFile path: String) throws -> String {
        let lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
        for (number, line) in lines.enumerated() {
            if let range = line.range(of: needle) { return "\(number + 1):\(line.distance(from: line.startIndex, to: range.lowerBound) + 1)" }
        }
        return "not found"
    }

    private let impact = BuiltCommand.path("Examples/haptic/impact-rumble.haptic")
    private let knock = BuiltCommand.path("Examples/sound/door-knock.wav")

    func testConvertsAClipToAHAPOnStandardOutputAndToAFile() throws {
        let run = try BuiltCommand().run(["convert", impact, "--to", "ahap"])
        XCTAssertEqual(run.status, 0, run.errorOutput)
        XCTAssertTrue(run.output.contains("\"HapticIntensityControl\""), run.output)
        XCTAssertTrue(run.errorOutput.contains("clamped to it"), "the frequency envelope past the end: \(run.errorOutput)")
        let output = try folder().appendingPathComponent("impact.ahap")
        let toFile = try BuiltCommand().run(["convert", impact, "--to", "ahap", "-o", output.path, "--quiet"])
        XCTAssertEqual(toFile.status, 0, toFile.errorOutput)
        XCTAssertEqual(toFile.output, "")
        XCTAssertEqual(toFile.errorOutput, "")
        XCTAssertEqual(try String(contentsOf: output, encoding: .utf8), run.output)
        let inspect = try BuiltCommand().run(["inspect", "--json", output.path])
        XCTAssertEqual(inspect.status, 0, inspect.errorOutput)
        let summary = try XCTUnwrap((try inspect.json()["files"] as? [[String: Any]])?.first)
        XCTAssertEqual(summary["events"] as? [String: Int], ["HapticTransient": 2, "HapticContinuous": 1])
    }

    func testConvertsNotationNotesAndAHAPToAHAPAndToHaptic() throws {
        for example in ["Examples/notation/success-confirmation.hnl", "Examples/notes/confirmation.notes", "Examples/ahap/parameter-curves.ahap"] {
            for target in ["ahap", "haptic"] {
                let run = try BuiltCommand().run(["convert", BuiltCommand.path(example), "--to", target])
                XCTAssertEqual(run.status, 0, "\(example) → \(target): \(run.errorOutput)")
                let output = try folder().appendingPathComponent("converted.\(target)")
                try run.output.write(to: output, atomically: true, encoding: .utf8)
                let inspect = try BuiltCommand().run(["inspect", output.path])
                XCTAssertEqual(inspect.status, 0, "\(example) → \(target) reads back: \(inspect.errorOutput)")
            }
        }
    }

    func testConvertToHapticWarnsWhatItCannotCarry() throws {
        let run = try BuiltCommand().run(["convert", BuiltCommand.path("Examples/ahap/audio-custom.ahap"), "--to", "haptic"])
        XCTAssertEqual(run.status, 0, run.errorOutput)
        XCTAssertTrue(run.errorOutput.contains(".haptic cannot carry everything of this pattern: 2 audio event(s) left out"), run.errorOutput)
        XCTAssertTrue(run.output.contains("\"signals\""))
    }

    func testStandardInputIsRecognisedByContent() throws {
        let command = try BuiltCommand()
        let (process, output, errorOutput) = command.process(["convert", "-", "--to", "ahap"])
        let input = Pipe()
        process.standardInput = input
        try process.run()
        input.fileHandleForWriting.write(try Data(contentsOf: URL(fileURLWithPath: impact)))
        try input.fileHandleForWriting.close()
        let run = BuiltCommand.finish(process, output: output, errorOutput: errorOutput)
        XCTAssertEqual(run.status, 0, run.errorOutput)
        XCTAssertTrue(run.output.contains("\"HapticTransient\""), run.output)
        XCTAssertTrue(run.errorOutput.contains("<stdin>:"), "warnings name stdin: \(run.errorOutput)")
    }

    func testBadInputIsOneLocatedErrorAndExitStatusOne() throws {
        let file = try folder().appendingPathComponent("broken.haptic")
        try """
        { "version": { "major": 1, "minor": 0, "patch": 0 },
          "signals": { "continuous": { "envelopes": { "amplitude": [ { "time": 0, "amplitude": 0.3 }, { "time": 1, "amplitude": 1.2 } ] } } } }
        """.write(to: file, atomically: true, encoding: .utf8)
        for command in [["convert", file.path, "--to", "ahap"], ["play", "--fast", file.path], ["inspect", file.path]] {
            let run = try BuiltCommand().run(command)
            XCTAssertEqual(run.status, 1, "\(command[0]): \(run.errorOutput)")
            XCTAssertEqual(run.errorOutput, "hapticboard: error: \(file.path):\(try position(of: "1.2", inFile: file.path)): signals.continuous.envelopes.amplitude[1].amplitude is 1.2: an amplitude must be within 0…1\n", command[0])
        }
    }

    func testAMissingSoundIsAWarningWhereNoSoundPlaysAndAnErrorWhereItWould() throws {
        let ahap = try ahapWithMissingSound()
        let at = try position(of: "\"boom.wav\"", inFile: ahap)
        for command in [["inspect", ahap], ["convert", ahap, "--to", "haptic"], ["render", ahap, "--svg", try folder().appendingPathComponent("x.svg").path], ["play", "--fast", "--no-audio", ahap]] {
            let run = try BuiltCommand().run(command)
            XCTAssertEqual(run.status, 0, "\(command[0]): \(run.errorOutput)")
            if command.contains("--no-audio") { continue }
            XCTAssertTrue((run.output + run.errorOutput).contains("\(ahap):\(at): warning: Pattern[1].Event.EventWaveformPath: waveform path \"boom.wav\" names no file in the AHAP file's folder (tried "), "\(command[0]): \(run.output)\(run.errorOutput)")
        }
        // --strict makes it an error everywhere; the sim board's (simulated) sound output would play it.
        for command in [["inspect", "--strict", ahap], ["convert", "--strict", ahap, "--to", "ahap"], ["play", "--fast", ahap]] {
            let run = try BuiltCommand().run(command)
            XCTAssertEqual(run.status, 1, "\(command[0])")
            XCTAssertTrue(run.errorOutput.contains("hapticboard: error: \(ahap):\(at): Pattern[1].Event.EventWaveformPath: waveform path \"boom.wav\" names no file"), "\(command[0]): \(run.errorOutput)")
            // Said once, as the error: not also as a warning that the file plays.
            XCTAssertFalse(run.errorOutput.contains("warning: Pattern[1].Event.EventWaveformPath"), "\(command[0]): \(run.errorOutput)")
        }
    }

    /// A frequency envelope running past the clip's end is summarised as it plays: clamped to
    /// the end, the value there interpolated (0.4 + 0.6 × 0.5 / 1.5 = 0.6 at 1 s).
    func testInspectSummarisesTheFrequencyEnvelopeAsItPlays() throws {
        let file = try folder().appendingPathComponent("late-frequency.haptic")
        try """
        { "version": { "major": 1, "minor": 0, "patch": 0 },
          "signals": { "continuous": { "envelopes": {
            "amplitude": [ { "time": 0, "amplitude": 0.5 }, { "time": 1, "amplitude": 0.5 } ],
            "frequency": [ { "time": 0, "frequency": 0.2 }, { "time": 0.5, "frequency": 0.4 }, { "time": 2, "frequency": 1 } ] } } } }
        """.write(to: file, atomically: true, encoding: .utf8)
        let run = try BuiltCommand().run(["inspect", file.path])
        XCTAssertEqual(run.status, 0, run.errorOutput)
        XCTAssertTrue(run.output.contains("frequency 0.2…0.6, mean"), run.output)
        XCTAssertTrue(run.output.contains("peak at 1 s"), run.output)
    }

    func testInspectSummarisesAClip() throws {
        let run = try BuiltCommand().run(["inspect", impact])
        XCTAssertEqual(run.status, 0, run.errorOutput)
        XCTAssertTrue(run.output.contains(".haptic 1.0.0: 1 s, 8 amplitude breakpoint(s), 5 frequency breakpoint(s), 2 emphasis"), run.output)
        XCTAssertTrue(run.output.contains("amplitude 0…0.9, mean 0.358, peak at 0.01 s"), run.output)
        let json = try BuiltCommand().run(["inspect", "--json", impact])
        let clip = try XCTUnwrap(((try json.json()["files"] as? [[String: Any]])?.first)?["clip"] as? [String: Any])
        XCTAssertEqual(clip["emphasis"] as? Int, 2)
        XCTAssertEqual(clip["amplitudeBreakpoints"] as? Int, 8)
        XCTAssertEqual(clip["duration"] as? Double, 1)
    }

    func testPlayAClipOnTheSimBoard() throws {
        let run = try BuiltCommand().run(["play", "--fast", "--json", impact])
        XCTAssertEqual(run.status, 0, run.errorOutput)
        let summary = try run.json()
        XCTAssertEqual(summary["late"] as? Int, 0, run.output)
        XCTAssertFalse(run.errorOutput.contains("ROM effect"), "emphasis is layered, not a dropped ROM effect: \(run.errorOutput)")
    }

    func testPlayASoundDerivesItsHapticsOnceAndPlaysTheSoundToo() throws {
        let cache = try folder()
        let first = try BuiltCommand().run(["play", "--fast", "--json", "--cache-dir", cache.path, knock])
        XCTAssertEqual(first.status, 0, first.errorOutput)
        let cached = try FileManager.default.contentsOfDirectory(atPath: cache.appendingPathComponent("sound-haptics").path)
        XCTAssertEqual(cached.count, 1)
        XCTAssertTrue(cached[0].hasSuffix(".haptic"))
        let audio = try XCTUnwrap(try first.json()["audio"] as? [String: Any], first.output)
        XCTAssertEqual((audio["onsets"] as? [[String: Any]])?.count, 1, "the sound itself plays beside its haptics")
        // Played again: from the cache (a changed setting is another entry).
        let again = try BuiltCommand().run(["play", "--fast", "--quiet", "--cache-dir", cache.path, knock])
        XCTAssertEqual(again.status, 0, again.errorOutput)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: cache.appendingPathComponent("sound-haptics").path).count, 1)
        let other = try BuiltCommand().run(["play", "--fast", "--quiet", "--cache-dir", cache.path, "--release-ms", "60", knock])
        XCTAssertEqual(other.status, 0, other.errorOutput)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: cache.appendingPathComponent("sound-haptics").path).count, 2)
        // The default cache folder is the user's, never the package.
        let environment = ["HAPTICBOARD_CACHE_DIR": cache.appendingPathComponent("by-environment").path]
        XCTAssertEqual(try BuiltCommand().run(["play", "--fast", "--quiet", knock], environment: environment).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: cache.appendingPathComponent("by-environment/sound-haptics").path))
    }

    func testConvertASoundWithSettingsAndAPreset() throws {
        let preset = try folder().appendingPathComponent("soft.json")
        try #"{ "sensitivity-percent": 0 }"#.write(to: preset, atomically: true, encoding: .utf8)
        let none = try BuiltCommand().run(["convert", knock, "--to", "haptic", "--preset", preset.path])
        XCTAssertEqual(none.status, 0, none.errorOutput)
        XCTAssertFalse(none.output.contains("emphasis"))
        let three = try BuiltCommand().run(["convert", knock, "--to", "haptic", "--preset", preset.path, "--sensitivity-percent", "50"])
        XCTAssertEqual(three.output.components(separatedBy: "\"emphasis\"").count - 1, 3, "three knocks")
        let ahap = try BuiltCommand().run(["convert", knock, "--to", "ahap"])
        XCTAssertTrue(ahap.output.contains("\"EventWaveformPath\": \"door-knock.wav\""), ahap.output)
        let bad = try BuiltCommand().run(["convert", knock, "--to", "haptic", "--fft-size", "1001"])
        XCTAssertEqual(bad.status, 1)
        XCTAssertEqual(bad.errorOutput, "hapticboard: error: --fft-size 1001.0: expected a whole number that is even\n")
    }

    func testRenderDrawsAClipsEnvelopes() throws {
        let svg = try folder().appendingPathComponent("impact.svg")
        let run = try BuiltCommand().run(["render", impact, "--svg", svg.path])
        XCTAssertEqual(run.status, 0, run.errorOutput)
        let text = try String(contentsOf: svg, encoding: .utf8)
        XCTAssertTrue(text.contains("class=\"clip-amplitude\""), "amplitude line")
        XCTAssertTrue(text.contains("class=\"clip-frequency\""), "frequency line")
        XCTAssertEqual(text.components(separatedBy: "class=\"clip-emphasis\"").count - 1, 2, "one mark per emphasis")
    }
}
