import Foundation

extension BenchReport {
    /// The report as aligned tables.
    var text: String {
        var lines: [String] = []
        let config = configuration
        lines.append("hapticboard bench: \(config.count) deadlines \(Self.number(config.periodMilliseconds)) ms apart, "
            + "\(config.loadThreads) busy thread(s) under load, \(config.cores) cores")
        lines.append("timing thread: \(config.timingThread); spin window at the end \(Self.number(config.spinWindowMicroseconds)) µs")
        lines.append("")
        lines.append("(a) lateness on the same periodic deadlines, µs (callback start − deadline)")
        lines += TextTable(
            header: ["condition", "method", "p50", "p99", "max", "p99 ÷ scheduler", "missing", "host steal ms"],
            rows: lateness.map {
                [$0.condition, $0.method, Self.number($0.p50Microseconds), Self.number($0.p99Microseconds),
                 Self.number($0.maxMicroseconds), Self.number($0.p99RatioToScheduler) + "×", String($0.missing),
                 $0.hostStealMilliseconds.map(Self.number) ?? "-"]
            },
            textColumns: 2
        ).lines
        lines.append("")
        lines.append("(b) overhead: a zero-cost action requested for \"now\" until it runs; player.start() until the bus write, µs")
        lines += TextTable(
            header: ["method", "samples", "p50", "p99", "max"],
            rows: overhead.map { [$0.method, String($0.samples), Self.number($0.p50Microseconds), Self.number($0.p99Microseconds), Self.number($0.maxMicroseconds)] }
        ).lines
        lines.append("")
        lines.append("(c) process CPU time (getrusage, all threads)")
        lines += TextTable(
            header: ["state", "CPU ms", "over ms", "% of one core"],
            rows: cpu.map { [$0.state, Self.number($0.cpuMilliseconds), Self.number($0.spanMilliseconds), Self.number($0.percentOfOneCore)] }
        ).lines
        if let goals {
            lines.append("")
            lines.append("goals (\(goals.condition)): asyncAfter p99 ÷ scheduler p99 = \(Self.number(goals.asyncAfterP99OverSchedulerP99))× "
                + "(≥ 20×: \(goals.p99AtLeast20TimesLower ? "met" : "not met")); "
                + "scheduler max \(Self.number(goals.schedulerMaxMicroseconds)) µs (< 1 ms: \(goals.maxUnder1Millisecond ? "met" : "not met")); "
                + "idle CPU \(Self.number(goals.idleCPUPercentOfOneCore)) % of a core (≈ 0: \(goals.idleCPUUnderOneTenthPercent ? "met" : "not met"))")
        }
        return lines.joined(separator: "\n")
    }

    /// Three significant digits at most, no exponent.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return String(value) }
        let magnitude = abs(value)
        let decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : magnitude >= 1 ? 2 : 3
        var text = String(format: "%.\(decimals)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text
    }
}
