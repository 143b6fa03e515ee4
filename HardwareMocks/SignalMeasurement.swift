/// Simple, FFT-free measurements of a captured signal for tests.
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
}
