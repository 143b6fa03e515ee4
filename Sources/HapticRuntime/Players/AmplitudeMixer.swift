/// The players' current amplitudes on one actuator and the single value written to it.
///
/// Mixing follows the compiler's rule for overlapping events (`DriveLevel.mix`): levels add and
/// the sum is clamped to full scale, so two players together feel stronger than either while the
/// drive stays within the actuator's rating. Negative values (active braking) count too, clamped
/// at −1 where the actuator brakes and at 0 where it cannot.
struct AmplitudeMixer {
    /// Whether the actuator accepts negative amplitude.
    let signed: Bool
    private var levels: [Int: Double] = [:]
    /// What the actuator was last told (0 after a stop or a mode switch away from streaming).
    var written = 0.0

    init(signed: Bool) {
        self.signed = signed
    }

    /// Sets one player's level.
    mutating func set(_ amplitude: Double, for player: Int) {
        levels[player] = amplitude
    }

    /// Takes a player out of the mix.
    mutating func remove(_ player: Int) {
        levels[player] = nil
    }

    /// The sum of every player's level, clamped to the actuator's range.
    var mixed: Double {
        let sum = levels.values.reduce(0, +)
        return min(1, max(signed ? -1 : 0, sum))
    }
}
