import Foundation
import HapticRuntime
import XCTest

/// feedbackd's theme format: profiles, parents and located problems.
final class FeedbackThemeTests: XCTestCase {
    private func error(_ text: String) -> String? {
        do {
            _ = try FeedbackTheme.parse(text, file: "t.json")
            return nil
        } catch {
            return error.description
        }
    }

    func testProblemsAreLocated() {
        XCTAssertEqual(error(#"{ "name": "t", "profiles": [ { "name": "loud", "feedbacks": [] } ] }"#),
                       "t.json:1:40: unknown profile 'loud'; expected full, quiet or silent")
        XCTAssertEqual(error(#"{ "name": "t", "profiles": [ { "name": "quiet", "feedbacks": [ { "event-name": "x", "type": "VibraRumble", "duration": 10, "magnitud": 1 } ] } ] }"#),
                       "t.json:1:124: unknown key 'magnitud'; did you mean 'magnitude'?")
        XCTAssertEqual(error(#"{ "name": "t", "profiles": [ { "name": "quiet", "feedbacks": [ { "event-name": "x", "type": "VibraPattern", "magnitudes": [1], "durations": [1, 2] } ] } ] }"#),
                       "t.json:1:141: magnitudes and durations must be non-empty and of the same length (1 and 2)")
        XCTAssertEqual(error(#"{ "name": "t", "profiles": [ { "name": "quiet", "feedbacks": [ { "event-name": "x", "type": "Spring" } ] } ] }"#),
                       "t.json:1:93: unknown feedback type 'Spring'; expected VibraRumble, VibraPeriodic, VibraPattern, Haptic, Sound or Led")
        XCTAssertEqual(error(#"{ "name": "t" "#)?.hasPrefix("t.json:1:"), true)
        // Which duration would count is a guess: refused, at the second.
        XCTAssertEqual(error(#"{ "name": "t", "profiles": [ { "name": "quiet", "feedbacks": [ { "event-name": "x", "type": "VibraRumble", "duration": 10, "duration": 9000 } ] } ] }"#),
                       "t.json:1:124: profiles[0].feedbacks[0].duration: given more than once (first at line 1, column 108): give each key once, so that no reader has to guess which value counts")
    }

    func testAChildThemeFallsBackToItsParentPerProfile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("themes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try #"{ "name": "default", "profiles": [ { "name": "quiet", "feedbacks": [ { "event-name": "button-pressed", "type": "VibraRumble", "duration": 12 }, { "event-name": "window-close", "type": "VibraRumble", "duration": 25 } ] } ] }"#
            .write(to: folder.appendingPathComponent("default.json"), atomically: true, encoding: .utf8)
        try #"{ "name": "kiosk", "parent-name": "default", "profiles": [ { "name": "quiet", "feedbacks": [ { "event-name": "button-pressed", "type": "Haptic", "notation": "loud sharp" } ] } ] }"#
            .write(to: folder.appendingPathComponent("kiosk.json"), atomically: true, encoding: .utf8)
        let theme = try FeedbackTheme.load(contentsOf: folder.appendingPathComponent("kiosk.json"))
        guard case .pattern(let pressed)? = theme.feedback(for: "button-pressed", at: .full).first else { return XCTFail("no feedback") }
        XCTAssertEqual(pressed.events.map(\.type), [.hapticTransient], "the child's own feedback")
        guard case .pattern(let closed)? = theme.feedback(for: "window-close", at: .quiet).first else { return XCTFail("no parent feedback") }
        XCTAssertEqual(closed.events.first?.duration, 0.025)
        XCTAssertEqual(theme.feedback(for: "window-close", at: .silent).count, 0)
        XCTAssertFalse(theme.names("phone-incoming-call"))
    }
}
