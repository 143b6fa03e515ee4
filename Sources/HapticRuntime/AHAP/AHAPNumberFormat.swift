/// How AHAP numbers are printed: Swift's shortest text that reads back as the same `Double`
/// (`0.1`, `1.0`, `1e-05`), all of which are valid JSON numbers.
enum AHAPNumberFormat {
    /// The JSON text of `value`. JSON has no NaN or infinity; they print as `null`, which
    /// `AHAP.read` refuses, so a pattern holding one fails loudly instead of changing silently.
    static func text(_ value: Double) -> String {
        value.isFinite ? value.description : "null"
    }
}
