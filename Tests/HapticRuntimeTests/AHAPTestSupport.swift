import Foundation
import XCTest
@testable import HapticRuntime

/// A seedable generator (SplitMix64, Steele et al. 2014), because the system generator cannot be
/// seeded and property and fuzz tests must repeat exactly.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

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
