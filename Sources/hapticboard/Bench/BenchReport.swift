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
        /// This method's p99 divided by the scheduler's p99 in the same condition (which is floored
        /// at `BenchReport.ratioFloorMicroseconds`, so a zero p99 does not divide by zero).
        var p99RatioToScheduler: Double
        /// CPU time the hypervisor took from the VM during this run, summed over CPUs (nil: not reported).
        var hostStealMilliseconds: Double?
    }

    /// "Now" to action running, in microseconds.
    struct OverheadRow: Encodable {
        var method: String
        var samples: Int
        var p50Microseconds: Double
        var p99Microseconds: Double
        var maxMicroseconds: Double
    }

    /// Process CPU time over a span.
    struct CPURow: Encodable {
        var state: String
        var cpuMilliseconds: Double
        var spanMilliseconds: Double
        /// CPU time as a share of one core over the span.
        var percentOfOneCore: Double
    }

    /// The goals, checked against this run's figures (informative only).
    struct Goals: Encodable {
        var condition: String
        var asyncAfterP99OverSchedulerP99: Double
        var p99AtLeast20TimesLower: Bool
        var schedulerMaxMicroseconds: Double
        var maxUnder1Millisecond: Bool
        var idleCPUPercentOfOneCore: Double
        var idleCPUUnderOneTenthPercent: Bool
    }

    /// Below a microsecond the scheduler's p99 is noise; ratios use at least this.
    static let ratioFloorMicroseconds = 1.0

    var configuration: Configuration
    var lateness: [LatenessRow]
    var overhead: [OverheadRow]
    var cpu: [CPURow]
    var goals: Goals?

    static func microseconds(_ duration: Duration) -> Double {
        Double(duration.nanoseconds) / 1_000
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.nanoseconds) / 1_000_000
    }

    /// Lateness rows of one condition, with ratios against the scheduler's result in it.
    static func latenessRows(condition: String, _ results: [PeriodicRunResult]) -> [LatenessRow] {
        let schedulerP99 = results.first { $0.method == .deadlineScheduler }.map { microseconds($0.lateness.percentile(99)) } ?? 0
        let denominator = max(schedulerP99, ratioFloorMicroseconds)
        return results.map { result in
            let p99 = microseconds(result.lateness.percentile(99))
            return LatenessRow(
                condition: condition, method: result.method.rawValue, samples: result.lateness.count, missing: result.missing,
                p50Microseconds: microseconds(result.lateness.percentile(50)), p99Microseconds: p99,
                maxMicroseconds: microseconds(result.lateness.maximum), p99RatioToScheduler: p99 / denominator,
                hostStealMilliseconds: result.hostSteal.map(milliseconds)
            )
        }
    }

    static func cpuRow(state: String, cpu: Duration, span: Duration) -> CPURow {
        let spanMilliseconds = milliseconds(span)
        let cpuMilliseconds = milliseconds(cpu)
        return CPURow(
            state: state, cpuMilliseconds: cpuMilliseconds, spanMilliseconds: spanMilliseconds,
            percentOfOneCore: spanMilliseconds > 0 ? cpuMilliseconds / spanMilliseconds * 100 : 0
        )
    }

    /// Checks the goals on the last condition measured (the loaded one when there is load).
    static func goals(lateness: [LatenessRow], idleCPU: CPURow?) -> Goals? {
        guard let condition = lateness.last?.condition,
              let scheduler = lateness.last(where: { $0.condition == condition && $0.method == TimingMethod.deadlineScheduler.rawValue }),
              let asyncAfter = lateness.last(where: { $0.condition == condition && $0.method == TimingMethod.asyncAfter.rawValue }),
              let idleCPU
        else { return nil }
        let worstMax = lateness.filter { $0.method == TimingMethod.deadlineScheduler.rawValue }.map(\.maxMicroseconds).max() ?? scheduler.maxMicroseconds
        return Goals(
            condition: condition, asyncAfterP99OverSchedulerP99: asyncAfter.p99RatioToScheduler,
            p99AtLeast20TimesLower: asyncAfter.p99RatioToScheduler >= 20,
            schedulerMaxMicroseconds: worstMax, maxUnder1Millisecond: worstMax < 1_000,
            idleCPUPercentOfOneCore: idleCPU.percentOfOneCore, idleCPUUnderOneTenthPercent: idleCPU.percentOfOneCore < 0.1
        )
    }
}
