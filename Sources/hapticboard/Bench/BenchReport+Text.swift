extension BenchReport {
    /// The report as aligned tables: the issue's figures first, then what they come from.
    var text: String {
        var lines: [String] = []
        let config = configuration
        lines.append("hapticboard bench: \(config.count) deadlines \(Self.number(config.periodMilliseconds)) ms apart, "
            + "\(config.loadThreads) busy thread(s) under load, \(config.cores) cores")
        lines.append("timing thread: \(config.timingThread); spin window at the end \(Self.number(config.spinWindowMicroseconds)) µs")
        lines.append("")
        lines.append("figures (ours beside a peer measured in this run; ratio = ours ÷ peer, or peer ÷ ours for lateness)")
        lines += TextTable(
            header: ["figure", "ours", "peer", "ratio", "goal", "met"],
            rows: figures.map { [$0.figure, $0.ours, $0.peer, $0.ratio?.text ?? "-", $0.goal, $0.met.map { $0 ? "yes" : "NO" } ?? "-"] },
            textColumns: 6
        ).lines
        lines.append("")
        lines.append("(a) lateness on the same periodic deadlines, µs (callback start − deadline); the host row is a bare")
        lines.append("    clock_nanosleep thread: the machine's own wake-up latency, with the steal the hypervisor reported")
        lines += TextTable(
            header: ["condition", "method", "p50", "p99", "max", "p99 ÷ scheduler", "missing", "host steal ms"],
            rows: lateness.map {
                [$0.condition, $0.method, Self.number($0.p50Microseconds), Self.number($0.p99Microseconds),
                 Self.number($0.maxMicroseconds), $0.p99RatioToScheduler?.text ?? "-", String($0.missing),
                 $0.hostStealMilliseconds.map(Self.number) ?? "-"]
            },
            textColumns: 2
        ).lines
        lines.append("")
        lines.append("(b) overhead, µs: a zero-cost action requested for \"now\" until it runs; player.start() until the bus write")
        lines += TextTable(
            header: ["method", "samples", "p50", "p99", "max"],
            rows: overhead.map { [$0.method, String($0.samples), Self.number($0.p50Microseconds), Self.number($0.p99Microseconds), Self.number($0.maxMicroseconds)] }
        ).lines
        lines.append("")
        lines.append("(c) a 1 kHz stream: CPU time (getrusage, busy threads taken out; the median of rounds the methods")
        lines.append("    took in turns) and updates more than a period late; the scheduler idle uses \(Self.number(idleCPUPercentOfOneCore)) % of a core")
        lines += TextTable(
            header: ["condition", "method", "% of one core", "rounds", "% late > 1 period", "host steal ms"],
            rows: streams.map {
                [$0.condition, $0.method, Self.number($0.percentOfOneCore), $0.roundsPercentOfOneCore.map(Self.number).joined(separator: " "),
                 Self.number($0.latePercent), $0.hostStealMilliseconds.map(Self.number) ?? "-"]
            },
            textColumns: 2
        ).lines
        if let sync {
            lines.append("")
            lines.append("(d) sound − haptic onset per onset on the simulated board, ms (\(sync.device))")
            lines.append("    " + sync.offsetsMilliseconds.map(Self.number).joined(separator: " "))
        }
        if let coldPlay {
            lines.append("")
            lines.append("(e) `hapticboard \(ColdPlay.arguments.joined(separator: " "))` as a new process: start → first bus write, ms; peak RSS, MiB")
            lines.append("    " + coldPlay.toFirstWriteMilliseconds.map { $0.map(Self.number) ?? "-" }.joined(separator: " ")
                + "; RSS " + coldPlay.maximumResidentMebibytes.map(Self.number).joined(separator: " "))
        }
        if let executableMebibytes {
            lines.append("")
            lines.append("this executable: \(Self.number(executableMebibytes)) MiB on disk (the Pi build is docs/performance.md's static, stripped one)")
        }
        return lines.joined(separator: "\n")
    }

    /// Three significant digits at most, no exponent.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return String(value) }
        let magnitude = abs(value)
        let decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : magnitude >= 1 ? 2 : 3
        var scaled = value
        for _ in 0..<decimals { scaled *= 10 }
        let rounded = scaled.rounded()
        var digits = String(Int64(abs(rounded)))
        if decimals > 0 {
            while digits.count <= decimals { digits = "0" + digits }
            digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -decimals))
            while digits.hasSuffix("0") { digits.removeLast() }
            if digits.hasSuffix(".") { digits.removeLast() }
        }
        return (rounded < 0 && digits != "0" ? "-" : "") + digits
    }
}
