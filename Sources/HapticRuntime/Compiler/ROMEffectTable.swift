/// A DRV2605 ROM effect placed on the intensity × sharpness plane.
public struct ROMEffectChoice: Sendable, Hashable {
    /// Effect id, 1–123.
    public var id: UInt8
    /// The name in TI's "Waveform Library Effects List".
    public var name: String
    /// Where the effect sits on the intensity axis.
    public var intensity: Double
    /// Where the effect sits on the sharpness axis.
    public var sharpness: Double
}

/// Which ROM effect plays a transient on a chip with a waveform library: the effect nearest to the
/// transient's (intensity, sharpness) in plain Euclidean distance, earlier rows winning ties.
///
/// Placement: intensity is the strength TI gives in the effect's name (100 %, 60 %, 30 %…);
/// sharpness follows the character of the family — Soft Bump 0.1 (round), Medium Click 0.4,
/// Strong Click 0.6, Sharp Click 0.85, Sharp Tick 1.0 (crispest, shortest). Transients weaker than
/// `minimumIntensity` are not felt through a ROM click and are skipped with a warning.
public enum ROMEffectTable {
    /// Transients below this intensity are skipped.
    public static let minimumIntensity = 0.05

    /// The candidate effects for transients.
    public static let transients: [ROMEffectChoice] = [
        ROMEffectChoice(id: 7, name: "Soft Bump - 100%", intensity: 1.0, sharpness: 0.1),
        ROMEffectChoice(id: 8, name: "Soft Bump - 60%", intensity: 0.6, sharpness: 0.1),
        ROMEffectChoice(id: 9, name: "Soft Bump - 30%", intensity: 0.3, sharpness: 0.1),
        ROMEffectChoice(id: 21, name: "Medium Click 1 - 100%", intensity: 1.0, sharpness: 0.4),
        ROMEffectChoice(id: 22, name: "Medium Click 2 - 80%", intensity: 0.8, sharpness: 0.4),
        ROMEffectChoice(id: 23, name: "Medium Click 3 - 60%", intensity: 0.6, sharpness: 0.4),
        ROMEffectChoice(id: 1, name: "Strong Click - 100%", intensity: 1.0, sharpness: 0.6),
        ROMEffectChoice(id: 2, name: "Strong Click - 60%", intensity: 0.6, sharpness: 0.6),
        ROMEffectChoice(id: 3, name: "Strong Click - 30%", intensity: 0.3, sharpness: 0.6),
        ROMEffectChoice(id: 4, name: "Sharp Click - 100%", intensity: 1.0, sharpness: 0.85),
        ROMEffectChoice(id: 5, name: "Sharp Click - 60%", intensity: 0.6, sharpness: 0.85),
        ROMEffectChoice(id: 6, name: "Sharp Click - 30%", intensity: 0.3, sharpness: 0.85),
        ROMEffectChoice(id: 24, name: "Sharp Tick 1 - 100%", intensity: 1.0, sharpness: 1.0),
        ROMEffectChoice(id: 25, name: "Sharp Tick 2 - 80%", intensity: 0.8, sharpness: 1.0),
        ROMEffectChoice(id: 26, name: "Sharp Tick 3 - 60%", intensity: 0.6, sharpness: 1.0),
    ]

    /// The effect for a transient, or nil when it is too weak to play (or no effect is `allowed`):
    /// the nearest of the allowed effects. `allowed` is asked, in table order, only about an
    /// effect nearer than every one it has allowed so far, so an expensive test runs a few times
    /// rather than once per row.
    public static func nearest(intensity: Double, sharpness: Double, allowed: (ROMEffectChoice) -> Bool = { _ in true }) -> ROMEffectChoice? {
        guard intensity >= minimumIntensity else { return nil }
        var best: ROMEffectChoice?
        var bestDistance = Double.infinity
        for choice in transients {
            let di = choice.intensity - intensity
            let ds = choice.sharpness - sharpness
            let distance = di * di + ds * ds
            // Asked only of a choice that would win: the compiler's test is a drive-budget sum over
            // the effects around the transient, and asking it of all fifteen when the nearest did
            // not fit was most of compiling a dense train of clicks.
            if distance < bestDistance, allowed(choice) {
                best = choice
                bestDistance = distance
            }
        }
        return best
    }

    /// The table as Markdown, for the README.
    public static func markdownTable() -> String {
        var lines = ["| effect id | name | intensity | sharpness |", "|---|---|---|---|"]
        for choice in transients {
            lines.append("| \(choice.id) | \(choice.name) | \(choice.intensity) | \(choice.sharpness) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
