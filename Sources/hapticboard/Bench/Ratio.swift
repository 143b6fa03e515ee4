/// One figure divided by another measured in the same run, printed only where the denominator
/// means something: below the measurement's resolution (a p99 of 0 or 0.4 µs) a quotient is
/// noise — "0×", "1081×" — so the resolution stands in for it and the ratio is shown as a lower
/// bound ("≥ 84×"); a numerator below the resolution too gives no ratio at all.
struct Ratio: Encodable, Equatable {
    /// The quotient, or the lower bound when `isLowerBound`.
    var value: Double
    /// The denominator was below the resolution; the true ratio is at least `value`.
    var isLowerBound: Bool

    /// `numerator ÷ denominator` where both are meaningful at `resolution`; nil when neither is.
    static func of(_ numerator: Double, over denominator: Double, resolution: Double) -> Ratio? {
        if denominator >= resolution { return Ratio(value: numerator / denominator, isLowerBound: false) }
        guard numerator >= resolution else { return nil }
        return Ratio(value: numerator / resolution, isLowerBound: true)
    }

    /// `3.2×`, `≥ 84×`.
    var text: String {
        (isLowerBound ? "≥ " : "") + BenchReport.number(value) + "×"
    }
}
