import XCTest
@testable import HapticRuntime

final class NameSuggestionTests: XCTestCase {
    private let names = ["HapticIntensity", "HapticSharpness", "AttackTime", "DecayTime", "ReleaseTime", "Sustained"]

    func testANameDifferingOnlyInLetterCaseIsThatName() {
        XCTAssertEqual(NameSuggestion.nearest(to: "hapticintensity", in: names), "HapticIntensity")
    }

    func testTheNearestNameWithinTwoEditsIsSuggested() {
        XCTAssertEqual(NameSuggestion.nearest(to: "HapticIntensty", in: names), "HapticIntensity")
        XCTAssertEqual(NameSuggestion.nearest(to: "DekayTim", in: names), "DecayTime")
        XCTAssertEqual(NameSuggestion.nearest(to: "Sustain", in: names), "Sustained")
    }

    func testThreeEditsAwayIsNoSuggestion() {
        XCTAssertNil(NameSuggestion.nearest(to: "Sustai", in: names))
        XCTAssertNil(NameSuggestion.nearest(to: "AtackTme!", in: names))
        XCTAssertNil(NameSuggestion.nearest(to: "", in: names))
    }

    func testOfEquallyNearNamesTheFirstIsSuggested() {
        XCTAssertEqual(NameSuggestion.nearest(to: "ab", in: ["ax", "xb"]), "ax")
        XCTAssertEqual(NameSuggestion.nearest(to: "ab", in: ["abcd", "xb"]), "xb")
    }

    func testANameLongerThanAnyComparedIsNotCompared() {
        let long = String(repeating: "a", count: 65)
        XCTAssertNil(NameSuggestion.nearest(to: long, in: [String(repeating: "a", count: 64)]))
    }
}
