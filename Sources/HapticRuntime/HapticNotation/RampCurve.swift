/// How a ramp moves from its start values to its end values: maps progress in time (0–1) to
/// progress in value.
enum RampCurve: Sendable, Hashable {
    case linear
    case easeIn
    case easeOut
    case easeInOut
    /// A CSS-style cubic Bézier timing curve from (0, 0) to (1, 1) with control points (x1, y1), (x2, y2).
    case cubic(x1: Double, y1: Double, x2: Double, y2: Double)

    /// The value progress at time progress `x`. The quadratic eases match the public implementation.
    func progress(at x: Double) -> Double {
        switch self {
        case .linear: x
        case .easeIn: x * x
        case .easeOut: x * (2 - x)
        case .easeInOut: x < 0.5 ? 2 * x * x : 1 - (2 - 2 * x) * (2 - 2 * x) / 2
        case .cubic(let x1, let y1, let x2, let y2):
            Self.bezier(at: Self.parameter(forX: x, x1: x1, x2: x2), p1: y1, p2: y2)
        }
    }

    /// One coordinate of the Bézier from 0 to 1 with inner control values `p1`, `p2`.
    private static func bezier(at t: Double, p1: Double, p2: Double) -> Double {
        let u = 1 - t
        return 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t
    }

    private static func bezierSlope(at t: Double, p1: Double, p2: Double) -> Double {
        let u = 1 - t
        return 3 * u * u * p1 + 6 * u * t * (p2 - p1) + 3 * t * t * (1 - p2)
    }

    /// Solves x(t) = x. With x1, x2 in 0–1 x(t) rises monotonically, so Newton's method from t = x
    /// converges quickly where the slope is healthy; where it is not, bisection narrows t to the last bit.
    private static func parameter(forX x: Double, x1: Double, x2: Double) -> Double {
        let target = min(max(x, 0), 1)
        let tolerance = 1e-12
        var t = target
        for _ in 0..<8 {
            let error = bezier(at: t, p1: x1, p2: x2) - target
            if abs(error) < tolerance { return t }
            let slope = bezierSlope(at: t, p1: x1, p2: x2)
            if abs(slope) < 1e-9 { break }
            t -= error / slope
            if t < 0 || t > 1 { break }
        }
        var low = 0.0, high = 1.0
        for _ in 0..<64 {
            let middle = (low + high) / 2
            if bezier(at: middle, p1: x1, p2: x2) < target { low = middle } else { high = middle }
        }
        return (low + high) / 2
    }
}
