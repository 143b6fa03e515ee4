import ActuatorHAL
import XCTest

/// `Duration.nanoseconds` and `Duration(nanoseconds:)` take a shortcut for durations whose
/// attoseconds fit 64 bits; they must agree with the standard library's `components` everywhere.
/// `Duration.nanoseconds(inSeconds:)` must agree with `Duration.seconds(_:)` everywhere.
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

    /// Seconds as content times become deadlines: thousandths and their quotients by a rate,
    /// where the nanosecond count sits a hair below a whole one (0.011 s is 10,999,999.99999999936
    /// ns exactly, 11,000,000 after the standard library's rounding), random values on every
    /// scale, whole seconds, and values outside the shortcut (negative, past 9 × 10⁹ s).
    func testNanosecondsInSecondsAgreeWithTheStandardLibrarysRounding() {
        var seconds: [Double] = [0, -0, 0.011, 0.003, 1e-9, 5e-10, 4.9999999999e-10, -0.011, -1.5, 1, 2, 3_600, 0.5, 0.999_999_999_999_999_9,
                                 9e9, 9e9.nextDown, 9.2e9, .leastNormalMagnitude, .leastNonzeroMagnitude]
        for thousandths in 0..<200_000 {
            seconds.append(Double(thousandths) / 1000)
            seconds.append(Double(thousandths) * 0.001 / 1.37)
            seconds.append((Double(thousandths) / 1000 - 0.25) / 0.5)
        }
        var random = SystemRandomNumberGenerator()
        for _ in 0..<300_000 {
            seconds.append(Double.random(in: 0...60, using: &random))
            seconds.append(Double.random(in: 0...0.001, using: &random))
            // Any positive double up to about 9.2e9 s (the Int64 nanoseconds' range).
            seconds.append(Double(bitPattern: UInt64.random(in: 0...0x41E0_0000_0000_0000, using: &random)))
        }
        var mismatches: [Double] = []
        for value in seconds where Duration.nanoseconds(inSeconds: value) != Duration.seconds(value).nanoseconds {
            mismatches.append(value)
        }
        XCTAssertEqual(mismatches.count, 0, "first: \(mismatches.prefix(5).map { "\($0) s: \(Duration.nanoseconds(inSeconds: $0)) against \(Duration.seconds($0).nanoseconds)" })")
    }
}
