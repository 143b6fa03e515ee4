import HardwareMocks
import XCTest
@testable import HapticRuntime

/// Thousands of mutated seed examples: each parses or throws a located error; none crashes or hangs.
final class HapticNotationFuzzTests: XCTestCase {
    private static let alphabet = Array(" \t\n\r.:,>#()-0123456789sxi_abcdeflmnoprtuy\u{e9}=")
    private static let words = [
        "loud", "sharp", "define", "loop", "9999x", "0s", "99999s", "ramp 0.5s:", "continuous 0.1s:",
        "sequence 0s:", "  ", "\t", ". ", "adsr:", "cubic(", "i2.5", "s-1", "0.00001s", "tick", "> ",
    ]

    private func mutate(_ text: String, using random: inout SplitMix64) -> String {
        var characters = Array(text)
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let position = characters.isEmpty ? 0 : Int.random(in: 0..<characters.count, using: &random)
            switch Int.random(in: 0..<6, using: &random) {
            case 0 where !characters.isEmpty:
                characters.remove(at: position)
            case 1:
                characters.insert(Self.alphabet.randomElement(using: &random) ?? " ", at: position)
            case 2:
                let word = Self.words.randomElement(using: &random) ?? ""
                characters.insert(contentsOf: word, at: position)
            case 3 where !characters.isEmpty:
                let length = Int.random(in: 1...min(12, characters.count - position), using: &random)
                characters.replaceSubrange(position..<position + length, with: [])
            case 4:
                var lines = String(characters).split(separator: "\n", omittingEmptySubsequences: false)
                if lines.count > 1 {
                    lines.swapAt(Int.random(in: 0..<lines.count, using: &random), Int.random(in: 0..<lines.count, using: &random))
                    lines.append(lines[Int.random(in: 0..<lines.count, using: &random)])
                }
                characters = Array(lines.joined(separator: "\n"))
            default:
                if characters.indices.contains(position), characters[position].isNumber {
                    characters.insert(contentsOf: "99", at: position)
                } else {
                    characters.insert(contentsOf: "\n  ", at: position)
                }
            }
        }
        return String(characters)
    }

    func testMutatedSeedExamplesParseOrFailWithALocation() throws {
        let examples = try NotationTestSupport.exampleNames().map(NotationTestSupport.exampleText)
        var random = SplitMix64(seed: 0x5EED_0003)
        var parsed = 0
        var failed = 0
        for _ in 0..<4_000 {
            let source = examples.randomElement(using: &random) ?? ""
            let text = mutate(source, using: &random)
            do {
                let content = try HapticNotation.parse(text, file: "fuzz.hnl")
                parsed += 1
                for event in content.pattern.events {
                    XCTAssertTrue(event.time.isFinite && event.time >= 0, text)
                    XCTAssertTrue((0...1).contains(event.value(of: .hapticIntensity)), text)
                    XCTAssertTrue((0...1).contains(event.value(of: .hapticSharpness)), text)
                }
                XCTAssertEqual(content.pattern.events.map(\.time), content.pattern.events.map(\.time).sorted(), text)
            } catch {
                failed += 1
                let lineCount = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).count
                XCTAssertTrue((1...max(1, lineCount)).contains(error.line), "\(error.line) of \(lineCount): \(text)")
                XCTAssertGreaterThanOrEqual(error.column, 1, text)
                XCTAssertTrue(error.description.hasPrefix("fuzz.hnl:\(error.line):\(error.column): "), text)
                XCTAssertTrue(error.description.contains("\n\(error.caretLine)"), text)
            }
        }
        // The mutations must exercise both outcomes, or the loop proves little.
        XCTAssertGreaterThan(parsed, 200)
        XCTAssertGreaterThan(failed, 2_000)
    }
}
