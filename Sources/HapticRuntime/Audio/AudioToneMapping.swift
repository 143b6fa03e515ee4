#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How an AudioContinuous event's parameters become a tone. Apple does not publish Core Haptics'
/// synthesiser, so hapticboard documents its own:
/// - **Pitch** (AudioPitch + AudioPitchControl, −1…1) → frequency = 440 Hz × 2^pitch: one octave
///   either side of A4 (220–880 Hz), equal steps on the log scale pitch is heard on.
/// - **Brightness** (AudioBrightness + AudioBrightnessControl, 0…1) → harmonic content: harmonic k
///   (1…8) has weight 1 for k = 1 and brightness^(k−1) / k above, so 0 is a pure sine and 1 a
///   band-limited sawtooth; the sum is divided by the total weight so the peak never exceeds the
///   volume, and harmonics at or above Nyquist are left out (no aliasing).
/// - **Volume** (AudioVolume × envelope × AudioVolumeControl) scales the tone (see `EventEnvelope`
///   for attack, decay, release and Sustained).
/// - **Pan** (AudioPan + AudioPanControl, −1…1) → constant-power gains left = cos((pan + 1)·π/4),
///   right = sin((pan + 1)·π/4) on the first two device channels; a mono device gets the tone once.
public enum AudioToneMapping {
    /// Harmonics rendered at full brightness.
    public static let harmonicCount = 8

    /// The tone's fundamental for `pitch` (clamped to −1…1).
    public static func frequency(pitch: Double) -> Double {
        440 * pow(2, clampedPitch(pitch))
    }

    /// Relative weight of harmonics 1…`harmonicCount` for `brightness` (clamped to 0…1), before
    /// normalisation.
    public static func harmonicWeights(brightness: Double) -> [Double] {
        let b = brightness.isNaN ? 0 : min(1, max(0, brightness))
        return (1...harmonicCount).map { k in k == 1 ? 1 : pow(b, Double(k - 1)) / Double(k) }
    }

    /// One sample of the tone at `phase` (radians of the fundamental), peak ≤ 1, using only
    /// harmonics below `nyquist` for a fundamental of `frequency`.
    public static func sample(phase: Double, weights: [Double], frequency: Double, nyquist: Double) -> Double {
        // sin(kφ) by the Chebyshev recurrence sin(kφ) = 2 cos φ · sin((k−1)φ) − sin((k−2)φ): one
        // sine and one cosine per sample instead of one sine per harmonic.
        let twiceCosine = 2 * cos(phase)
        var previous = 0.0
        var current = sin(phase)
        var sum = 0.0
        var total = 0.0
        for (index, weight) in weights.enumerated() {
            let harmonic = Double(index + 1)
            guard harmonic * frequency < nyquist else { break }
            if weight > 0 {
                sum += weight * current
                total += weight
            }
            (previous, current) = (current, twiceCosine * current - previous)
        }
        return total > 0 ? sum / total : 0
    }

    /// Constant-power gains for the first two channels at `pan` (clamped to −1…1).
    public static func panGains(_ pan: Double) -> (left: Double, right: Double) {
        let p = pan.isNaN ? 0 : min(1, max(-1, pan))
        let angle = (p + 1) * Double.pi / 4
        return (cos(angle), sin(angle))
    }

    private static func clampedPitch(_ pitch: Double) -> Double { pitch.isNaN ? 0 : min(1, max(-1, pitch)) }
}
