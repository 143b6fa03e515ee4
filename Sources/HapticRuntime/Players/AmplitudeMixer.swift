/// The players' current amplitudes on one actuator and the single value written to it.
///
/// Mixing follows the compiler's rule for overlapping events (`DriveLevel.mix`): levels add and
/// the sum is clamped to full scale, so two players together feel stronger than either while the
/// drive stays within the actuator's rating. Negative values (active braking) count too, clamped
/// at −1 where the actuator brakes and at 0 where it cannot.
struct AmplitudeMixer {
    /// Whether the actuator accepts negative amplitude.
    let signed: Bool
    /// Each player's level, in the order the players joined: an actuator mixes a handful of
    /// players at most, and a scan of a few pairs is cheaper than hashing on every sample and at
    /// every start, and refilling it after `reset()` allocates nothing.
    private var levels: [(player: Int, level: Double)] = []
    /// What the actuator was last told (0 after a stop or a mode switch away from streaming).
    var written = 0.0

    init(signed: Bool) {
        self.signed = signed
    }

    /// Sets one player's level.
    mutating func set(_ amplitude: Double, for player: Int) {
        // Plain index loops here and in `mixed`: the generic `firstIndex(where:)` and iterator,
        // unspecialized in a debug build, allocated on every sample.
        for index in 0..<levels.count where levels[index].player == player {
            levels[index].level = amplitude
            return
        }
        levels.append((player, amplitude))
    }

    /// Takes a player out of the mix.
    mutating func remove(_ player: Int) {
        levels.removeAll { $0.player == player }
    }

    /// Takes every player out of the mix and forgets what was written (the actuator was stopped).
    mutating func reset() {
        levels.removeAll(keepingCapacity: true)
        written = 0
    }

    /// The sum of every player's level, clamped to the actuator's range.
    var mixed: Double {
        var sum = 0.0
        for index in 0..<levels.count { sum += levels[index].level }
        return min(1, max(signed ? -1 : 0, sum))
    }
}
