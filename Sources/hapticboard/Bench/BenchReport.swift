import HapticRuntime

/// Everything `hapticboard bench` measured, as printed or encoded with `--json`.
struct BenchReport: Encodable {
    struct Configuration: Encodable {
        var count: Int
        var periodMilliseconds: Double
        var loadThreads: Int
        var cores: Int
        /// What the timing thread's real-time set-up achieved, in words.
        var timingThread: String
        /// The scheduler's adaptive spin window at the end of the run.
        var spinWindowMicroseconds: Double
    }

    /// Lateness of one method in one condition, in microseconds.
    struct LatenessRow: Encodable {
        var condition: String
        var method: String
        var samples: Int
        var missing: Int
        var p50Microseconds: Double
        var p99Microseconds: Double
        var maxMicroseconds: Double
        /// This method's p99 against the scheduler's in the same condition; nil where neither
        /// resolves (see `Ratio`).
        var p99RatioToScheduler: Ratio?
        /// CPU time the hypervisor took from the VM during this run, summed over CPUs (nil: not reported).
        var hostStealMilliseconds: Double?
    }

    /// Request → action (or bus write), in microseconds.
    struct OverheadRow: Encodable {
        var method: String
        var samples: Int
        var p50Microseconds: Double
        var p99Microseconds: Double
        var maxMicroseconds: Double
    }

    /// A 1 kHz stream served by one method in one condition.
    struct StreamRow: Encodable {
        var condition: String
        var method: String
        /// The method's CPU time as a share of one core (the busy threads' taken out): the median
        /// of its rounds.
        var percentOfOneCore: Double
        /// Each round's share, in the order run (the methods' rounds alternate).
        var roundsPercentOfOneCore: [Double]
        /// Updates served more than one period late, or skipped, as a share of all.
        var latePercent: Double
        var hostStealMilliseconds: Double?
    }

    /// `hapticboard play --effect 47` on sim as a new process.
    struct ColdPlayRow: Encodable {
        var runs: Int
        /// Process start → first bus write, per run, in milliseconds (nil: no write reported).
        var toFirstWriteMilliseconds: [Double?]
        /// The child's peak resident memory while playing, per run, in MiB.
        var maximumResidentMebibytes: [Double]
        /// Whether the child's timing thread locked its memory (no refusal reported).
        var memoryLocked: Bool
    }

    /// Sound ↔ haptic onsets on the simulated board.
    struct SyncRow: Encodable {
        var onsets: Int
        /// Sound onset − haptic onset, per onset, in milliseconds.
        var offsetsMilliseconds: [Double]
        /// Why each offset is what it is, in words (the audio device's granularity).
        var device: String
    }

    /// One line of the table: our figure beside its peer's from the same run.
    struct Figure: Encodable {
        var figure: String
        var ours: String
        var peer: String
        var ratio: Ratio?
        var goal: String
        /// nil where the goal cannot be judged in this run (a figure missing).
        var met: Bool?
    }

    /// Latencies below this are below what the clock reads and the histogram resolve.
    static let resolutionMicroseconds = 1.0

    var configuration: Configuration
    var figures: [Figure]
    var lateness: [LatenessRow]
    var overhead: [OverheadRow]
    var streams: [StreamRow]
    var idleCPUPercentOfOneCore: Double
    var coldPlay: ColdPlayRow?
    var sync: SyncRow?
    /// This executable's size on disk, in MiB (strip it, and build it static, for the Pi figure).
    var executableMebibytes: Double?

    static func microseconds(_ duration: Duration) -> Double {
        Double(duration.nanoseconds) / 1_000
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.nanoseconds) / 1_000_000
    }

    /// Lateness rows of one condition, with ratios against the scheduler's result in it.
    static func latenessRows(condition: String, _ results: [PeriodicRunResult]) -> [LatenessRow] {
        let schedulerP99 = results.first { $0.method == .deadlineScheduler }.map { microseconds($0.lateness.percentile(99)) }
        return results.map { result in
            let p99 = microseconds(result.lateness.percentile(99))
            return LatenessRow(
                condition: condition, method: result.method.rawValue, samples: result.lateness.count, missing: result.missing,
                p50Microseconds: microseconds(result.lateness.percentile(50)), p99Microseconds: p99,
                maxMicroseconds: microseconds(result.lateness.maximum),
                p99RatioToScheduler: schedulerP99.flatMap { Ratio.of(p99, over: $0, resolution: resolutionMicroseconds) },
                hostStealMilliseconds: result.hostSteal.map(milliseconds)
            )
        }
    }

    static func overheadRow(_ method: String, _ histogram: LatenessHistogram) -> OverheadRow {
        OverheadRow(
            method: method, samples: histogram.count, p50Microseconds: microseconds(histogram.percentile(50)),
            p99Microseconds: microseconds(histogram.percentile(99)), maxMicroseconds: microseconds(histogram.maximum)
        )
    }

    /// One method's stream in one condition from its rounds of `count` updates each: the median
    /// round's CPU share (a round now and then lands beside something else the machine does), the
    /// late updates and the steal of all rounds.
    static func streamRow(condition: String, _ rounds: [PeriodicRunResult], count: Int) -> StreamRow {
        let shares = rounds.map { percentOfOneCore(cpu: $0.cpu, span: $0.span) }
        let updates = count * rounds.count
        let steal = rounds.compactMap(\.hostSteal)
        return StreamRow(
            condition: condition, method: rounds.first?.method.rawValue ?? "", percentOfOneCore: median(shares), roundsPercentOfOneCore: shares,
            latePercent: updates > 0 ? Double(rounds.map(\.latePastOnePeriod).reduce(0, +)) / Double(updates) * 100 : 0,
            hostStealMilliseconds: steal.isEmpty ? nil : milliseconds(steal.reduce(.zero, +))
        )
    }

    /// The middle value (the mean of the two middle ones for an even count); 0 for none.
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }

    static func percentOfOneCore(cpu: Duration, span: Duration) -> Double {
        span > .zero ? milliseconds(cpu) / milliseconds(span) * 100 : 0
    }
}
