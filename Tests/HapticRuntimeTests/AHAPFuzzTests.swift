import Foundation
import HardwareMocks
import XCTest
@testable import HapticRuntime

/// Thousands of mutated example files: each either reads or throws an `AHAPError` with a
/// location — never a crash or a hang.
final class AHAPFuzzTests: XCTestCase {
    private static let fragments: [[UInt8]] = [
        "{", "}", "[", "]", ",", ":", "\"", "\\", "-", "1e999", "null", "true", "0", " ", "\n", "\"Event\"",
        "\"Time\": -1", "\"EventType\": \"AudioCustom\"", "\"ParameterValue\": 7", "\\ud800", "é", "[[[[[[[[",
    ].map { Array($0.utf8) }

    func testMutatedExamplesEitherReadOrFailWithALocatedError() throws {
        let sources = try AHAPFixtures.exampleNames.map { try Array(Data(contentsOf: AHAPFixtures.example($0))) }
        var random = SplitMix64(seed: 0x5EED_AB1E)
        var readCount = 0
        var errorCount = 0
        for iteration in 0..<3000 {
            var bytes = sources.randomElement(using: &random) ?? []
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                ByteMutation.mutate(&bytes, inserting: Self.fragments, using: &random)
            }
            let text = String(decoding: bytes, as: UTF8.self)
            do {
                // Every tenth input resolves waveform paths in the examples folder, so mutated
                // paths also meet the file system.
                let folder = iteration % 10 == 0 ? AHAPFixtures.examplesFolder : nil
                let content = try AHAP.read(text: text, file: "fuzz.ahap", relativeTo: folder)
                // Whatever reads must also write and read back.
                XCTAssertEqual(try AHAP.read(text: AHAP.write(content.pattern), file: "again").pattern, content.pattern,
                               "iteration \(iteration)")
                readCount += 1
            } catch {
                errorCount += 1
                let location = try XCTUnwrap(error.location, "iteration \(iteration): \(error)")
                XCTAssertEqual(location.file, "fuzz.ahap")
                XCTAssertGreaterThanOrEqual(location.line, 1)
                XCTAssertGreaterThanOrEqual(location.column, 1)
                XCTAssertTrue(error.description.hasPrefix("fuzz.ahap:\(location.line):\(location.column): "), error.description)
            }
        }
        // Both outcomes must be exercised, or the mutations are too weak or too destructive to test anything.
        XCTAssertGreaterThan(readCount, 100)
        XCTAssertGreaterThan(errorCount, 100)
    }
}
