import Foundation
import HardwareMocks
import XCTest
@testable import HapticRuntime

enum AHAPFixtures {
    /// The package's `Examples/ahap` folder, found from this source file.
    static let examplesFolder: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Examples/ahap", isDirectory: true)

    static let exampleNames = [
        "transients.ahap", "continuous-envelopes.ahap", "dynamic-parameters.ahap", "parameter-curves.ahap",
        "audio-custom.ahap", "real-world-quirks.ahap", "bare-event.ahap",
    ]

    static func example(_ name: String) -> URL {
        examplesFolder.appendingPathComponent(name)
    }

    /// Reads `text` as `test.ahap`, failing the test with the error's description if it throws.
    static func read(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> LoadedContent? {
        do {
            return try AHAP.read(text: text, file: "test.ahap")
        } catch {
            XCTFail("unexpected error: \(error)", file: file, line: line)
            return nil
        }
    }

    /// The error reading `text` as `test.ahap` gives, failing the test if it reads.
    static func error(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> AHAPError? {
        do {
            let content = try AHAP.read(text: text, file: "test.ahap")
            XCTFail("expected an error, read \(content.pattern)", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    /// A pattern holding one event built from the JSON members in `eventBody`.
    static func singleEvent(_ eventBody: String) -> String {
        """
        {
          "Pattern": [
            { "Event": { \(eventBody) } }
          ]
        }
        """
    }
}

/// A folder under the temporary directory, removed when the test ends.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("ahap-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func write(_ text: String, to name: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
        return file
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
