/// A histogram of non-negative durations with bounded memory and no allocation per sample, in the
/// style of HdrHistogram: exact below 128 ns, then 64 buckets per power of two, so any percentile is
/// within 1/64 (≈ 1.6 %) of a recorded value. Minimum and maximum are exact.
public struct LatenessHistogram: Sendable {
    private static let subBucketBits = 6
    private static let subBucketCount = 1 << subBucketBits
    /// Values below this have a bucket each.
    private static let directCount = 2 * subBucketCount
    /// Powers of two covered above the direct range: up to 2^(7 + 34) ns ≈ 36 minutes.
    private static let shiftCount = 34
    private static let bucketCount = directCount + shiftCount * subBucketCount

    private var counts: [Int]
    /// Samples recorded.
    public private(set) var count: Int
    /// The largest sample (zero when empty).
    public private(set) var maximum: Duration
    /// The smallest sample (zero when empty).
    public private(set) var minimum: Duration
    /// The sum of every sample, in nanoseconds (for a Prometheus histogram's `_sum`).
    public private(set) var sumNanoseconds: Int64 = 0

    /// An empty histogram.
    public init() {
        counts = Array(repeating: 0, count: Self.bucketCount)
        count = 0
        maximum = .zero
        minimum = .zero
    }

    /// Adds one sample; negative durations count as zero (early is not late).
    public mutating func record(_ duration: Duration) {
        let value = max(duration, .zero)
        counts[Self.bucketIndex(of: value.nanoseconds)] += 1
        if count == 0 || value < minimum { minimum = value }
        if value > maximum { maximum = value }
        count += 1
        sumNanoseconds &+= value.nanoseconds
    }

    /// Samples at or below `bound`, to the histogram's resolution (a bucket counts when its lower
    /// bound is at or below `bound`).
    public func count(atOrBelow bound: Duration) -> Int {
        guard count > 0 else { return 0 }
        if bound >= maximum { return count }
        let last = Self.bucketIndex(of: bound.nanoseconds)
        return counts[...last].reduce(0, +)
    }

    /// The value below or at which `p` percent of the samples lie (`percentile(99)` is p99), to
    /// within 1/64; `p` is clamped to 0…100. Zero when empty.
    public func percentile(_ p: Double) -> Duration {
        guard count > 0 else { return .zero }
        let fraction = min(max(p, 0), 100) / 100
        let rank = max(1, Int((fraction * Double(count)).rounded(.up)))
        // The top sample is known exactly, even beyond the last bucket.
        if rank >= count { return maximum }
        var seen = 0
        for (index, bucket) in counts.enumerated() where bucket > 0 {
            seen += bucket
            if seen >= rank {
                let lower = Duration.nanoseconds(Self.lowerBound(ofBucket: index))
                return min(max(lower, minimum), maximum)
            }
        }
        return maximum
    }

    /// The samples recorded since `earlier`, a snapshot of this histogram taken before. The
    /// maximum is exact when it grew since the snapshot; otherwise it is the bucket bound of the
    /// largest new sample (within 1/64), and so is the minimum.
    public func since(_ earlier: LatenessHistogram) -> LatenessHistogram {
        var delta = LatenessHistogram()
        delta.counts = zip(counts, earlier.counts).map { max(0, $0 - $1) }
        delta.count = delta.counts.reduce(0, +)
        delta.sumNanoseconds = sumNanoseconds - earlier.sumNanoseconds
        guard delta.count > 0 else { return delta }
        let lowest = delta.counts.firstIndex { $0 > 0 } ?? 0
        let highest = delta.counts.lastIndex { $0 > 0 } ?? 0
        delta.minimum = .nanoseconds(Self.lowerBound(ofBucket: lowest))
        delta.maximum = maximum > earlier.maximum ? maximum : .nanoseconds(Self.lowerBound(ofBucket: highest))
        return delta
    }

    /// A copy with its own storage, so that recording into the original never copies on the
    /// timing thread after a reader took a snapshot.
    func detachedCopy() -> LatenessHistogram {
        var copy = self
        copy.counts = counts.map { $0 }
        return copy
    }

    private static func bucketIndex(of nanoseconds: Int64) -> Int {
        if nanoseconds < Int64(directCount) { return Int(max(nanoseconds, 0)) }
        let highestBit = 63 - nanoseconds.leadingZeroBitCount
        let shift = highestBit - subBucketBits
        let mantissa = Int(nanoseconds >> shift) - subBucketCount
        return min(directCount + (shift - 1) * subBucketCount + mantissa, bucketCount - 1)
    }

    private static func lowerBound(ofBucket index: Int) -> Int64 {
        if index < directCount { return Int64(index) }
        let offset = index - directCount
        let shift = offset / subBucketCount + 1
        let mantissa = Int64(offset % subBucketCount + subBucketCount)
        return mantissa << shift
    }
}
