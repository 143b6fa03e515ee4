import Foundation
import XCTest
@testable import HapticRuntime

/// `.haptic` documents for tests, and where things are in them.
enum HapticClipFixtures {
    /// A document with `amplitude` (and `frequency`) as the envelopes' array bodies; the amplitude
    /// body starts on line 5.
    static func document(amplitude: String, frequency: String? = nil, version: String = #"{ "major": 1, "minor": 0, "patch": 0 }"#) -> String {
        """
        {
          "version": \(version),
          "signals": { "continuous": {
            "envelopes": {
              "amplitude": [\(amplitude)]\(frequency.map { ",\n      \"frequency\": [\($0)]" } ?? "")
            }
          } }
        }
        """
    }

    /// `line:column` of the `occurrence`-th (1-based) appearance of `needle` in `text`, as the
    /// reader reports positions (columns count characters).
    static func position(of needle: String, in text: String, occurrence: Int = 1) -> String {
        var seen = 0
        for (number, line) in text.components(separatedBy: "\n").enumerated() {
            var searchStart = line.startIndex
            while let range = line.range(of: needle, range: searchStart..<line.endIndex) {
                seen += 1
                if seen == occurrence { return "\(number + 1):\(line.distance(from: line.startIndex, to: range.lowerBound) + 1)" }
                searchStart = range.upperBound
            }
        }
        return "not found"
    }

    static func read(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> LoadedContent? {
        do {
            return try HapticClip.read(text: text, file: "clip.haptic")
        } catch {
            XCTFail("unexpected error: \(error)", file: file, line: line)
            return nil
        }
    }

    static func error(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> HapticClipError? {
        do {
            let content = try HapticClip.read(text: text, file: "clip.haptic")
            XCTFail("expected an error, read \(String(describing: content.clip))", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    static var examplesFolder: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Examples")
    }
}
