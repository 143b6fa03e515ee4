/// The table, from the rows measured in one run: each figure beside its peer, a ratio
/// only where its denominator resolves, and the goal checked.
extension BenchReport {
    /// Method names as the rows carry them.
    private static let scheduler = TimingMethod.deadlineScheduler.rawValue
    private static let asyncAfter = TimingMethod.asyncAfter.rawValue
    private static let hostFloor = TimingMethod.hostFloor.rawValue

    static func figures(
        lateness: [LatenessRow], overhead: [OverheadRow], streams: [StreamRow], coldPlay: ColdPlayRow?, sync: SyncRow?
    ) -> [Figure] {
        var figures: [Figure] = []
        let async = overhead.first { $0.method == WakeOverhead.Method.dispatchAsync.rawValue }
        if let start = overhead.first(where: { $0.method == PlayerStartOverhead.method }) {
            let ratio = async.flatMap { Ratio.of(start.p99Microseconds, over: $0.p99Microseconds, resolution: resolutionMicroseconds) }
            figures.append(Figure(
                figure: "player.start() → first bus write, zero-cost bus, p99", ours: microsecondsText(start.p99Microseconds),
                peer: async.map { "DispatchQueue.async " + microsecondsText($0.p99Microseconds) } ?? "-", ratio: ratio,
                goal: "≤ 20 µs and ≤ 3× DispatchQueue.async",
                met: ratio.map { start.p99Microseconds <= 20 && !$0.isLowerBound && $0.value <= 3 || start.p99Microseconds <= resolutionMicroseconds }
            ))
        }
        if let now = overhead.first(where: { $0.method == WakeOverhead.Method.deadlineScheduler.rawValue }), let async {
            figures.append(Figure(
                figure: "DeadlineScheduler.schedule(at: now) → run, p99", ours: microsecondsText(now.p99Microseconds),
                peer: "DispatchQueue.async " + microsecondsText(async.p99Microseconds),
                ratio: Ratio.of(now.p99Microseconds, over: async.p99Microseconds, resolution: resolutionMicroseconds),
                goal: "≤ DispatchQueue.async's", met: now.p99Microseconds <= async.p99Microseconds
            ))
        }
        for condition in orderedConditions(streams.map(\.condition)) {
            guard let ours = streams.first(where: { $0.condition == condition && $0.method == scheduler }),
                  let peer = streams.first(where: { $0.condition == condition && $0.method == asyncAfter }) else { continue }
            figures.append(Figure(
                figure: "1 kHz RTP stream, % of one core (\(condition))",
                ours: number(ours.percentOfOneCore) + " %, " + number(ours.latePercent) + " % late > 1 period",
                peer: "asyncAfter " + number(peer.percentOfOneCore) + " % (" + number(peer.latePercent) + " % late)",
                ratio: Ratio.of(ours.percentOfOneCore, over: peer.percentOfOneCore, resolution: 0.01),
                goal: "≤ asyncAfter's, < 0.1 % late", met: ours.percentOfOneCore <= peer.percentOfOneCore && ours.latePercent < 0.1
            ))
        }
        if let condition = lateness.last?.condition,
           let ours = lateness.last(where: { $0.condition == condition && $0.method == scheduler }),
           let peer = lateness.last(where: { $0.condition == condition && $0.method == asyncAfter }) {
            let host = lateness.last { $0.condition == condition && $0.method == hostFloor }
            let ratio = Ratio.of(peer.p99Microseconds, over: ours.p99Microseconds, resolution: resolutionMicroseconds)
            // A maximum the host's own bare sleeper could not keep below 1 ms is the host's, and so
            // is one in a run the hypervisor stole time from (steal is counted in 10 ms ticks).
            let hostAllows = (host?.maxMicroseconds ?? 0) < 1_000 && (ours.hostStealMilliseconds ?? 0) == 0
            let hostText = host.map { "; host p99 \(microsecondsText($0.p99Microseconds)), max \(microsecondsText($0.maxMicroseconds))" } ?? ""
            let steal = ours.hostStealMilliseconds.map { ", steal \(number($0)) ms" } ?? ""
            figures.append(Figure(
                figure: "lateness (\(condition)): p99, max",
                ours: microsecondsText(ours.p99Microseconds) + ", max " + microsecondsText(ours.maxMicroseconds),
                peer: "asyncAfter p99 " + microsecondsText(peer.p99Microseconds) + hostText + steal,
                ratio: ratio, goal: "p99 ≤ 50 µs, ≥ 20× under asyncAfter, max < 1 ms where the host allows (its own sleeper under 1 ms, no steal)",
                met: ours.p99Microseconds <= 50 && (ratio?.value ?? 0) >= 20 && (ours.maxMicroseconds < 1_000 || !hostAllows)
            ))
        }
        if let sync, let worst = sync.offsetsMilliseconds.map(abs).max() {
            figures.append(Figure(
                figure: "sound ↔ haptic onset, simulated board (\(sync.onsets) onsets)",
                ours: number(sync.offsetsMilliseconds.min() ?? 0) + " … " + number(sync.offsetsMilliseconds.max() ?? 0) + " ms",
                peer: sync.device, ratio: nil, goal: "within ±1 ms", met: worst <= 1
            ))
        }
        if let coldPlay {
            let times = coldPlay.toFirstWriteMilliseconds.compactMap { $0 }.sorted()
            let median = times.isEmpty ? nil : times[times.count / 2]
            figures.append(Figure(
                figure: "cold `play --effect 47` on sim, process start → first bus write (\(coldPlay.runs) runs)",
                ours: median.map { "median \(number($0)) ms, max \(number(times.last ?? $0)) ms" } ?? "no write reported",
                peer: "-", ratio: nil, goal: "≤ 30 ms", met: times.last.map { $0 <= 30 && times.count == coldPlay.runs }
            ))
            let resident = coldPlay.maximumResidentMebibytes.max() ?? 0
            figures.append(Figure(
                figure: "RSS while playing (`play --effect 47`, peak)",
                ours: number(resident) + " MiB" + (coldPlay.memoryLocked ? ", timing path locked" : ", memory NOT locked (not permitted)"),
                peer: "-", ratio: nil, goal: "≤ 16 MB with the timing path locked",
                met: coldPlay.memoryLocked ? resident * 1_048_576 <= 16_000_000 : nil
            ))
        }
        return figures
    }

    /// Conditions in the order first seen.
    private static func orderedConditions(_ conditions: [String]) -> [String] {
        var seen: Set<String> = []
        return conditions.filter { seen.insert($0).inserted }
    }

    static func microsecondsText(_ value: Double) -> String {
        number(value) + " µs"
    }
}
