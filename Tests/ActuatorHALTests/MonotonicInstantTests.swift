import ActuatorHAL
import XCTest

/// `Duration.nanoseconds` and `Duration(nanoseconds:)` take a shortcut for durations whose
/// attoseconds fit 64 bits; they must agree with the standard library's `components` everywhere.
final class MonotonicInstantTests: XCTestCase {
    /// What `nanoseconds` computed before the shortcut.
    private func byComponents(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// `Duration(attoseconds:)` is Swift 6.2's; this one is Swift 6.0's too.
    private func attoseconds(_ count: Int64) -> Duration {
        Duration(secondsComponent: 0, attosecondsComponent: count)
    }

    func testNanosecondsAgreeWithComponentsOnBothSidesOfTheShortcut() {
        let durations: [Duration] = [
            .zero, .nanoseconds(1), .nanoseconds(-1), .microseconds(37), .milliseconds(-50), .seconds(9), .seconds(-9),
            // Around 2^63 attoseconds (9.223372036854775807 s), where the shortcut ends.
            .nanoseconds(9_223_372_036), .nanoseconds(9_223_372_037), .nanoseconds(-9_223_372_036), .nanoseconds(-9_223_372_037),
            .seconds(3_600), .seconds(-86_400 * 365), .seconds(Int64.max / 1_000_000_000),
            // Below a nanosecond: truncated toward zero on either side.
            attoseconds(999_999_999), attoseconds(-999_999_999), attoseconds(1_500_000_000), attoseconds(-1_500_000_000),
            attoseconds(.max), attoseconds(.min),
        ]
        for duration in durations {
            XCTAssertEqual(duration.nanoseconds, byComponents(duration), "\(duration)")
        }
    }

    func testADurationMadeFromNanosecondsIsTheStandardLibrarysOne() {
        for nanoseconds: Int64 in [0, 1, -1, 999, 9_223_372_037, -9_223_372_037, Int64.max / 2, Int64.min / 2] {
            XCTAssertEqual(Duration(nanoseconds: nanoseconds), .nanoseconds(nanoseconds))
            XCTAssertEqual(Duration(nanoseconds: nanoseconds).nanoseconds, nanoseconds)
        }
        XCTAssertEqual(MonotonicInstant(nanoseconds: 5) - MonotonicInstant(nanoseconds: 12), .nanoseconds(-7))
    }
}
