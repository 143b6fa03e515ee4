import Foundation
import XCTest
@testable import HapticRuntime

/// Shared by the notation tests: the seed examples on disk and timing assertions.
enum NotationTestSupport {
    static let examplesFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples/notation")

    static func exampleNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: examplesFolder.path)
            .filter { $0.hasSuffix(".hnl") }.sorted()
    }

    static func exampleText(_ name: String) throws -> String {
        try String(contentsOf: examplesFolder.appendingPathComponent(name), encoding: .utf8)
    }

    static func example(_ name: String) throws -> LoadedContent {
        try HapticNotation.parse(try exampleText(name), file: name)
    }
}

/// Asserts each value matches within 1e-9 (times summed from decimals are not exact in binary).
func assertNotationClose(
    _ actual: [Double], _ expected: [Double], accuracy: Double = 1e-9,
    file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertEqual(actual.count, expected.count, "count of \(actual)", file: file, line: line)
    for (index, (a, e)) in zip(actual, expected).enumerated() {
        XCTAssertEqual(a, e, accuracy: accuracy, "element \(index) of \(actual)", file: file, line: line)
    }
}

extension HapticPattern {
    var eventTimes: [Double] { events.map(\.time) }
    var eventIntensities: [Double] { events.map { $0.value(of: .hapticIntensity) } }
    var eventSharpnesses: [Double] { events.map { $0.value(of: .hapticSharpness) } }
    var eventTypes: [HapticEventType] { events.map(\.type) }
}

extension ParameterCurve {
    var controlPointTimes: [Double] { controlPoints.map(\.time) }
    var controlPointValues: [Double] { controlPoints.map(\.value) }
}
