#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Simple measurements of a captured signal, for tests and for the kernel lane's capture check.
/// Written for clarity over speed: the lane runs them under emulation on a few seconds of audio, so
/// the costly ones (correlation, frequency scan) take the range to search rather than scanning all.
public enum SignalMeasurement {
    /// The frequency in hertz from rising zero crossings between the first and the last, each
    /// placed by linear interpolation between the samples around it; nil with fewer than two.
    public static func zeroCrossingFrequency(of signal: [Double], sampleRate: Int) -> Double? {
        var crossings: [Double] = []
        for index in 1..<max(1, signal.count) where signal[index - 1] < 0 && signal[index] >= 0 {
            let fraction = -signal[index - 1] / (signal[index] - signal[index - 1])
            crossings.append(Double(index - 1) + fraction)
        }
        guard let first = crossings.first, let last = crossings.last, crossings.count >= 2 else { return nil }
        return Double(crossings.count - 1) * Double(sampleRate) / (last - first)
    }

    /// Index of the first sample whose magnitude exceeds `threshold`.
    public static func firstIndex(in signal: [Double], above threshold: Double) -> Int? {
        signal.firstIndex { abs($0) > threshold }
    }

    /// The largest magnitude in `signal[range]` (0 for an empty range).
    public static func peak(of signal: [Double], in range: Range<Int>) -> Double {
        let clamped = range.clamped(to: 0..<signal.count)
        return signal[clamped].reduce(0) { max($0, abs($1)) }
    }

    /// The stretches of `signal` that are not silent: each starts at a sample whose magnitude
    /// exceeds `threshold` and ends after the last such sample before a run of at least
    /// `minimumGap` quiet samples. Quiet runs shorter than that (a tone's zero crossings, the
    /// quiet moments of noise) stay inside their stretch. Everything outside the stretches is at or
    /// under `threshold`, which is what "silent there" means.
    public static func soundingSpans(in signal: [Double], above threshold: Double, minimumGap: Int) -> [Range<Int>] {
        var spans: [Range<Int>] = []
        var start: Int?
        var lastLoud = 0
        for (index, sample) in signal.enumerated() where abs(sample) > threshold {
            if let open = start, index - lastLoud > minimumGap {
                spans.append(open..<lastLoud + 1)
                start = index
            } else if start == nil {
                start = index
            }
            lastLoud = index
        }
        if let open = start { spans.append(open..<lastLoud + 1) }
        return spans
    }

    /// Where a known signal lies inside a longer one: the offset and how alike they are there.
    public struct Alignment: Equatable, Sendable {
        /// Index in the searched signal of the reference's first sample.
        public var lag: Int
        /// Normalised cross-correlation at `lag`, in −1...1: 1 when the signal there is the
        /// reference scaled by a positive gain.
        public var correlation: Double

        /// An alignment at `lag` with `correlation`.
        public init(lag: Int, correlation: Double) {
            self.lag = lag
            self.correlation = correlation
        }
    }

    /// The lag in `lags` at which `signal` is most like `reference` (normalised cross-correlation,
    /// so a gain or pan applied on the way does not matter); nil when no lag in `lags` fits the
    /// whole reference inside the signal or either side is silent there.
    public static func bestAlignment(of reference: [Double], in signal: [Double], lags: ClosedRange<Int>) -> Alignment? {
        let referenceEnergy = reference.reduce(0) { $0 + $1 * $1 }
        guard !reference.isEmpty, referenceEnergy > 0 else { return nil }
        let usable = lags.clamped(to: 0...max(0, signal.count - reference.count))
        guard signal.count >= reference.count, !usable.isEmpty else { return nil }
        var best: Alignment?
        for lag in usable {
            var product = 0.0
            var energy = 0.0
            for index in reference.indices {
                let sample = signal[lag + index]
                product += reference[index] * sample
                energy += sample * sample
            }
            guard energy > 0 else { continue }
            let correlation = product / (referenceEnergy * energy).squareRoot()
            if correlation > best?.correlation ?? -.infinity {
                best = Alignment(lag: lag, correlation: correlation)
            }
        }
        return best
    }

    /// The frequency in `range` (hertz) with the most energy in `signal`, found by a discrete
    /// Fourier transform of the Hann-windowed signal evaluated on a 1 Hz grid and then on a
    /// 0.01 Hz grid around the best point, so a steady tone is located well inside one DFT bin;
    /// nil for an empty signal or range.
    public static func dominantFrequency(of signal: [Double], sampleRate: Int, in range: ClosedRange<Double>) -> Double? {
        guard signal.count > 1, sampleRate > 0, range.upperBound > range.lowerBound else { return nil }
        let count = Double(signal.count - 1)
        let windowed = signal.enumerated().map { index, sample in
            sample * 0.5 * (1 - cos(2 * Double.pi * Double(index) / count))
        }
        func power(at frequency: Double) -> Double {
            // A unit phasor turned by one sample's angle each step (renormalised now and then so
            // rounding cannot grow it): no sine or cosine per sample.
            let step = 2 * Double.pi * frequency / Double(sampleRate)
            let (stepCos, stepSin) = (cos(step), sin(step))
            var (phaseCos, phaseSin) = (1.0, 0.0)
            var real = 0.0
            var imaginary = 0.0
            for (index, sample) in windowed.enumerated() {
                real += sample * phaseCos
                imaginary -= sample * phaseSin
                (phaseCos, phaseSin) = (phaseCos * stepCos - phaseSin * stepSin, phaseSin * stepCos + phaseCos * stepSin)
                if index % 1024 == 1023 {
                    let length = (phaseCos * phaseCos + phaseSin * phaseSin).squareRoot()
                    (phaseCos, phaseSin) = (phaseCos / length, phaseSin / length)
                }
            }
            return real * real + imaginary * imaginary
        }
        func strongest(from low: Double, to high: Double, step: Double) -> Double {
            var best = low
            var bestPower = -1.0
            var frequency = low
            while frequency <= high {
                let value = power(at: frequency)
                if value > bestPower { (best, bestPower) = (frequency, value) }
                frequency += step
            }
            return best
        }
        let coarse = strongest(from: range.lowerBound, to: range.upperBound, step: 1)
        return strongest(from: max(range.lowerBound, coarse - 1), to: min(range.upperBound, coarse + 1), step: 0.01)
    }
}
