/// A point in time on a monotonic clock (CLOCK_MONOTONIC on Linux, virtual time in tests).
///
/// Stored as nanoseconds since the clock's own origin; instants from different clocks must
/// not be compared.
public struct MonotonicInstant: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    public static let zero = MonotonicInstant(nanoseconds: 0)

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    public static func + (lhs: Self, rhs: Duration) -> Self {
        MonotonicInstant(nanoseconds: lhs.nanoseconds + rhs.nanoseconds)
    }

    public static func - (lhs: Self, rhs: Duration) -> Self {
        MonotonicInstant(nanoseconds: lhs.nanoseconds - rhs.nanoseconds)
    }

    public static func - (lhs: Self, rhs: Self) -> Duration {
        Duration(nanoseconds: lhs.nanoseconds - rhs.nanoseconds)
    }

    /// Seconds since the clock's origin, for display and for content time arithmetic.
    public var seconds: Double { Double(nanoseconds) / 1e9 }

    public var description: String { "\(seconds)s" }
}

extension Duration {
    /// Whole nanoseconds in this duration (truncated below a nanosecond).
    ///
    /// Every deadline, lead and cost on the way to the bus goes through here. `components` divides
    /// the 128-bit count of attoseconds in software, some 190 instructions a call; a duration
    /// within ±9.2 s, which nearly all of these are, has its count in 64 bits: one division by a
    /// constant.
    public var nanoseconds: Int64 {
        #if compiler(>=6.2)
        if let attoseconds = Int64(exactly: attoseconds) { return attoseconds / 1_000_000_000 }
        return Int64(attoseconds / 1_000_000_000)
        #else
        // Swift 6.0 and 6.1 (Debian trixie's swiftlang) have no `attoseconds` (SE-0457).
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        #endif
    }

    /// `nanoseconds` nanoseconds, without the generic `.nanoseconds(_:)`'s checked 128-bit
    /// conversion.
    public init(nanoseconds: Int64) {
        #if compiler(>=6.2)
        self.init(attoseconds: Int128(nanoseconds) * 1_000_000_000)
        #else
        let (seconds, remainder) = nanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
        self.init(secondsComponent: seconds, attosecondsComponent: remainder * 1_000_000_000)
        #endif
    }

    /// This duration in seconds as a floating-point value.
    public var secondsValue: Double { Double(nanoseconds) / 1e9 }

    /// `Duration.seconds(seconds).nanoseconds` without `Duration.seconds(_:)`'s 128-bit arithmetic
    /// in software (some 330 instructions a call, and a segment plan converts every command's
    /// time): the same steps in 64 bits — the whole seconds exactly, the fraction's attoseconds
    /// rounded to the nearest in `Double` as the standard library rounds them (0.011 s is
    /// 10,999,999.99999999936 ns exactly, and 11,000,000 both ways) — then whole nanoseconds.
    /// Negative values and those past 9 × 10⁹ s take `Duration.seconds(_:)` itself.
    public static func nanoseconds(inSeconds seconds: Double) -> Int64 {
        guard seconds >= 0, seconds < 9e9 else { return Duration.seconds(seconds).nanoseconds }
        let whole = seconds.rounded(.towardZero)
        let attoseconds = ((seconds - whole) * 1e18).rounded()
        return Int64(whole) * 1_000_000_000 + Int64(attoseconds) / 1_000_000_000
    }
}

/// A clock that never goes backwards. Everything time-dependent in hapticboard takes one, so tests
/// drive time explicitly (see `VirtualClock` in HardwareMocks) and never sleep on wall time.
public protocol MonotonicClock: AnyObject, Sendable {
    /// The current instant.
    var now: MonotonicInstant { get }

    /// Blocks the calling thread until `deadline` (an absolute instant, so repeated sleeps do not drift).
    func sleep(until deadline: MonotonicInstant) throws
}

extension MonotonicClock {
    /// Sleeps for a relative duration from now.
    public func sleep(for duration: Duration) throws {
        try sleep(until: now + duration)
    }
}
