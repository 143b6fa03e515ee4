@testable import hapticboard
import XCTest

/// `TriggerRequest.plainSegments` reads a path's bytes; it must take exactly the paths the
/// reading by Characters took (RFC 3986's unreserved characters, no empty segment), split the same.
final class TriggerPathTests: XCTestCase {
    func testPlainSegmentsAgreeWithTheReadingByCharacters() {
        let fixed = ["/feedback/impact/rigid", "/play/effect/47", "/events/button-pressed", "/", "", "feedback/selection",
                     "/feedback//impact", "/feedback/impact/", "/play/library/a%20b", "/play/library/ä", "/play/library/e\u{301}",
                     "/a.b_c~d-e/0", "//", "/x y", "/Z9"]
        for path in fixed {
            XCTAssertEqual(TriggerRequest.plainSegments(of: path)?.map(String.init), Self.byCharacters(path), path)
        }
        // Every path of up to four symbols from an alphabet of what matters: the separator,
        // unreserved and reserved characters, a letter that is not ASCII, a combining accent.
        let alphabet: [String] = ["/", "a", "7", "~", "%", " ", "ä", "\u{301}"]
        var level = [""]
        var paths = level
        for _ in 1...4 {
            level = level.flatMap { prefix in alphabet.map { prefix + $0 } }
            paths += level
        }
        XCTAssertEqual(paths.count, 1 + 8 + 64 + 512 + 4_096)
        for path in paths {
            XCTAssertEqual(TriggerRequest.plainSegments(of: path)?.map(String.init), Self.byCharacters(path), path.debugDescription)
        }
    }

    /// The reading this replaced, kept as the reference.
    private static func byCharacters(_ path: String) -> [String]? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        let unreserved = { (character: Character) in character.isASCII && (character.isLetter || character.isNumber || "-._~".contains(character)) }
        guard path.hasPrefix("/"), segments.allSatisfy({ !$0.isEmpty && $0.allSatisfy(unreserved) }) else { return nil }
        return segments.map(String.init)
    }
}
