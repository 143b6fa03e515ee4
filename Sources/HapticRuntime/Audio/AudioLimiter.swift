#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A look-ahead peak limiter: the mix never exceeds `ceiling`, and the gain that keeps it there
/// moves smoothly, so overlapping sounds get quieter instead of clipping.
///
/// For every frame j the gain needed is r = ceiling / peak (1 when the peak is under the ceiling).
/// The gain at frame i is the lowest of, for each j from i to i + `lookAheadFrames`, a straight
/// ramp from 1 (look-ahead frames before j) down to r at j — so gain reduction starts before a
/// peak and is complete when it arrives (no overshoot, no hard clip). Each peak that needs about
/// the current gain (within 1 %) restarts a hold of `holdFrames` (20 ms, longer than a 50 Hz
/// cycle), so the gain stays put between the peaks of a loud tone — a gain moving within each
/// cycle would itself be distortion. Once the hold runs out the gain recovers 20 dB per
/// `releaseFrames` (50 ms), in proportion to itself, so deep and shallow reductions release
/// equally smoothly. Frames are peaked
/// across channels, so the stereo image does not shift. The mixer renders voices ahead, so the
/// look-ahead adds no latency.
public struct AudioLimiter: Sendable, Hashable {
    /// Highest absolute sample value let through (0.98 ≈ −0.2 dBFS: headroom for Int16 rounding).
    public var ceiling: Float
    /// Frames the gain starts falling before a peak.
    public var lookAheadFrames: Int
    /// Frames the gain holds after a reduction before it recovers.
    public var holdFrames: Int
    /// Frames the gain takes to recover by 20 dB.
    public var releaseFrames: Int
    /// The gain applied to the last frame processed.
    public private(set) var gain: Float = 1
    private var holding = 0

    /// A limiter with 1 ms of look-ahead, a 20 ms hold and a 50 ms release at `sampleRate`.
    public init(sampleRate: Int, ceiling: Float = 0.98) {
        self.ceiling = ceiling
        lookAheadFrames = max(1, sampleRate / 1000)
        holdFrames = max(1, sampleRate / 50)
        releaseFrames = max(1, sampleRate / 20)
    }

    /// Limits the first `frames` frames of `mix` (interleaved, `channels` per frame), reading up
    /// to `lookAheadFrames` further frames of `mix` where present to prepare for coming peaks.
    public mutating func process(_ mix: [Float], frames: Int, channels: Int) -> [Float] {
        let available = channels > 0 ? mix.count / channels : 0
        let frames = min(frames, available)
        var needed = [Float](repeating: 1, count: available)
        for frame in 0..<available {
            var peak: Float = 0
            for channel in 0..<channels { peak = max(peak, abs(mix[frame * channels + channel])) }
            if peak > ceiling { needed[frame] = ceiling / peak }
        }
        let span = Float(lookAheadFrames + 1)
        let release = Float(pow(10, 1 / Double(releaseFrames)))
        var output = [Float](repeating: 0, count: frames * channels)
        for frame in 0..<frames {
            var target: Float = 1
            for ahead in 0...lookAheadFrames where frame + ahead < available {
                let r = needed[frame + ahead]
                if r < 1 { target = min(target, r + (1 - r) * Float(ahead) / span) }
            }
            if target <= gain * 1.01 {
                gain = min(gain, target)
                holding = holdFrames
            } else if holding > 0 {
                holding -= 1
            } else {
                gain = min(target, gain * release)
            }
            for channel in 0..<channels {
                output[frame * channels + channel] = mix[frame * channels + channel] * gain
            }
        }
        return output
    }
}
