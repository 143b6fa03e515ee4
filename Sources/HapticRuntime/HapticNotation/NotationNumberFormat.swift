/// Numbers as people write them in notation: `1` rather than `1.0`, `0.25` rather than `0.250000`.
enum NotationNumberFormat {
    static func text(_ value: Double) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
            return String(Int64(value))
        }
        return "\(value)"
    }
}
