extension LatenessHistogram {
    /// About how many samples are above `threshold`, to the histogram's 1/64 resolution: the
    /// share above the lowest percentile that exceeds it, found by bisection.
    public func estimatedCount(above threshold: Duration) -> Int {
        guard count > 0, maximum > threshold else { return 0 }
        var low = 0.0
        var high = 100.0
        for _ in 0..<40 {
            let middle = (low + high) / 2
            if percentile(middle) > threshold { high = middle } else { low = middle }
        }
        return max(1, Int(((100 - high) / 100 * Double(count)).rounded()))
    }
}
