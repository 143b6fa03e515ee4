import ActuatorHAL
import ActuatorHALLinux
import ArgumentParser
import Dispatch
import Foundation
import HapticRuntime

/// `hapticboard bench`: the figures of the performance issue in one run, each beside a peer
/// measured in the same run (DispatchQueue.async/asyncAfter, Task.sleep, the host's own sleeper).
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure timing, CPU, sync, cold start and memory beside DispatchQueue, Task.sleep and the host's own wake-up.",
        discussion: """
        (a) Every method wakes at the same periodic CLOCK_MONOTONIC deadlines, first on an idle \
        machine, then with --load busy threads; lateness = callback start − deadline; a bare \
        clock_nanosleep thread (cyclictest-like) shows the host's own wake-up latency, and the \
        hypervisor's steal time is printed beside. \
        (b) A zero-cost action is requested for "now" and timed until it runs, one request every \
        millisecond so the waker is idle each time; and player.start() on an engine whose \
        (simulated DRV2605L) actuator is ready is timed until its first register write reaches a \
        zero-cost bus (transactions take no wire time), one start after each player's end. \
        (c) In each condition, each method streams 1,000 amplitude values 1 ms apart, three times, \
        the methods taking turns: its CPU time (getrusage, the busy threads taken out; the median \
        of its three) and the updates more than a period late. \
        (d) Sound and haptic onsets of a pattern on the simulated board, per onset. \
        (e) `hapticboard play --effect 47` as a new process: start → first bus write, and its peak \
        resident memory. The machine is shared and noisy: compare within one run, as ratios. \
        Takes about 4 × count × period and nine seconds of streams per condition, plus ten \
        seconds.

        --service measures only the service: a trigger over its Unix socket (one kept-alive \
        connection) and over WebSocket until the first bus write, beside the direct engine path \
        and the host's own wake-up of a thread waiting on a Unix socket (the floor of any socket \
        trigger); \
        --service-triggers sustained triggers from 50 concurrent clients (rate, lost, errors, \
        resident memory and malloc heap in use after the first 10,000 and at the end); its idle \
        CPU. With --load N.

        --ff measures only force feedback: an EV_FF play written by a client of the simulated \
        kernel device until the first register write of the effect reaches a zero-cost bus \
        (the provider's thread reads it, the engine starts the effect's players, the timing \
        thread writes), beside the direct engine path in the same run: player.start(atTime: now) \
        of the same pattern. Goal: p99 ≤ 200 µs through the device. Then rumble updates as \
        SDL's Linux backend makes them (the slot's rumble uploaded again with new magnitudes and \
        a 65,535 ms length, then played): how long the game waits in EVIOCSFF, and until the \
        play's first write. Then the gaps between a playing effect's register writes (a 40 ms \
        triangle, a write at every 1 ms update) while a client uploads 10 s effects of new \
        content beside it (each upload's wait in EVIOCSFF too): what compiling an upload holds up. \
        Last, FF_GAIN set with every slot holding an effect and a play right after it: until \
        that play's first write.

        --inputs measures only the input side: a press on a simulated GPIO line (a reader \
        thread blocked on it as on a line's event descriptor) until the first register write of \
        its bound ROM effect reaches a zero-cost bus, through the decoder, the bindings, the \
        service and the scheduler, beside player.start() on the same engine path and the \
        host's own wake-up (DispatchQueue.async after the same 30 ms pause: on a virtual machine \
        an idle vCPU's way out of halt); idle, then with --load N busy threads. With real-time \
        threads each condition is timed twice: the kernel placing the threads, then the timing \
        thread, the reader and the thread standing in for the line's interrupt on one CPU \
        (--realtime-cpu, default the last), as a board with its GPIO interrupt on the real-time \
        threads' CPU runs them. Goals: p99 ≤ 100 µs idle, ≤ 300 µs loaded.

        --sound-analysis measures only the analysis that makes haptics from sound: seconds of \
        analysis for 1, 10 and 60 s clips at 48 kHz (fastest of three runs), how many times \
        faster than real time that is, and the growth of peak resident memory per clip.
        """
    )

    @Option(name: .long, help: "Busy threads spinning during the loaded condition (0: idle only).")
    var load = 0

    @Option(name: .long, help: "Deadlines per method and condition.")
    var count = 2_000

    @Option(name: .customLong("period-ms"), help: "Milliseconds between deadlines.")
    var periodMilliseconds = 2.0

    @Flag(name: .long, help: "Run the timing thread without asking for real-time priority.")
    var noRealtime = false

    @OptionGroup var realtime: RealtimeOptions

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    @Flag(name: .long, help: "Measure the sound analysis (haptics from sound) instead of timing.")
    var soundAnalysis = false

    @Flag(name: .long, help: "Measure EV_FF play to the first bus write through the force-feedback provider, beside the direct engine path.")
    var ff = false

    @Flag(name: .long, help: "Measure a press on a simulated GPIO line to the first bus write of its binding, idle and with --load.")
    var inputs = false

    @Flag(name: .long, help: "Measure the service: a trigger over its Unix socket and over WebSocket to the first bus write beside the direct engine path, sustained triggers from 50 clients, resident memory and idle CPU.")
    var service = false

    @Option(name: .long, help: "With --service, the sustained triggers in all (the memory figure compares the end with the first 10,000).")
    var serviceTriggers = 1_000_000

    /// Plays per path in --ff.
    static let forceFeedbackSamples = 500
    /// The --ff goal for p99 through the device.
    static let forceFeedbackGoal = Duration.microseconds(200)

    /// Presses per condition in --inputs.
    static let inputSamples = 500
    static let inputGoalIdle = Duration.microseconds(100)
    static let inputGoalLoaded = Duration.microseconds(300)

    /// The 1 kHz stream of part (c).
    static let streamPeriod = Duration.milliseconds(1)
    static let streamCount = 1_000
    /// Rounds of the stream per method and condition; a method's figure is its median round.
    static let streamRounds = 3
    /// Requests in part (b).
    static let overheadSamples = 1_000
    /// Player starts in part (b); each plays a short transient to its end.
    static let playerStartSamples = 200
    /// New processes started for part (e).
    static let coldPlayRuns = 5

    func validate() throws {
        guard load >= 0 else { throw ValidationError("--load must be 0 or more busy threads, not \(load).") }
        guard count >= 1 else { throw ValidationError("--count must be at least 1, not \(count).") }
        guard periodMilliseconds > 0, periodMilliseconds.isFinite else {
            throw ValidationError("--period-ms must be a positive number of milliseconds, not \(periodMilliseconds).")
        }
    }

    func run() throws {
        if soundAnalysis {
            let rows = SoundAnalysisBench().run(progress: printError)
            if json { try printJSON(rows) } else { print(SoundAnalysisBench.text(rows)) }
            return
        }
        let clock = SystemMonotonicClock()
        if service {
            let bench = ServiceBench(clock: clock, realtime: !noRealtime, cpu: realtime.realtimeCPU, samples: min(count, 1_000), sustained: serviceTriggers)
            let busy = BusyLoad(threads: load)
            defer { busy.stop() }
            let figures = try ServiceConnection.blocking { try await bench.run(progress: printError) }
            if json { try printJSON(figures) } else { print(ServiceBench.text(figures)) }
            return
        }
        if inputs {
            try runInputs(clock: clock)
            return
        }
        let scheduler = DeadlineScheduler(clock: clock, name: "hapticboard-bench")
        scheduler.startThread(setup: noRealtime ? nil : realtime.timing)
        defer { scheduler.stopThread() }
        if ff {
            printError("bench: EV_FF play → first bus write, \(Self.forceFeedbackSamples) plays per path…")
            let figures = try ForceFeedbackLatency(clock: clock, scheduler: scheduler, realtime: !noRealtime, cpu: realtime.realtimeCPU, samples: Self.forceFeedbackSamples).run()
            let rows = [("EV_FF play → first bus write (simulated device, provider thread)", figures.device),
                        ("player.start(atTime: now) → first bus write (direct engine path)", figures.direct),
                        ("SDL rumble update (65,535 ms): EVIOCSFF → answered", figures.updateUpload),
                        ("SDL rumble update: EVIOCSFF → first bus write of its play", figures.updateToWrite),
                        ("new 10 s wave: EVIOCSFF → answered", figures.newWaveUpload),
                        ("1 kHz stream: gap between writes during those uploads (\(figures.missedUpdates) over 1.5 ms)", figures.streamGaps),
                        ("FF_GAIN, \(ForceFeedbackLatency.storedAtGain) new waves stored → first bus write of the next play", figures.gainToWrite)].map { method, histogram in
                BenchReport.OverheadRow(method: method, samples: histogram.count, p50Microseconds: BenchReport.microseconds(histogram.percentile(50)),
                                        p99Microseconds: BenchReport.microseconds(histogram.percentile(99)), maxMicroseconds: BenchReport.microseconds(histogram.maximum))
            }
            if json {
                try printJSON(rows)
            } else {
                print("force feedback: \(Self.describe(scheduler.realtimeSetup)), zero-cost bus, sim DRV2605L ready")
                for row in rows {
                    print(String(format: "  %-70@ p50 %7.1f µs   p99 %7.1f µs   max %8.1f µs   (%d)", row.method as NSString, row.p50Microseconds, row.p99Microseconds, row.maxMicroseconds, row.samples))
                }
                let met = figures.device.percentile(99) <= Self.forceFeedbackGoal
                print("  goal: EV_FF play → bus p99 ≤ \(BenchReport.microseconds(Self.forceFeedbackGoal)) µs: \(met ? "met" : "missed")")
            }
            return
        }
        let queue = DispatchQueue(label: "hapticboard.bench", qos: .userInteractive)
        let period = Duration.nanoseconds(Int64((periodMilliseconds * 1_000_000).rounded()))
        let periodic = PeriodicDeadlines(clock: clock, scheduler: scheduler, queue: queue, realtime: !noRealtime, period: period, count: count)
        let stream = PeriodicDeadlines(
            clock: clock, scheduler: scheduler, queue: queue, realtime: !noRealtime, period: Self.streamPeriod, count: Self.streamCount
        )

        printError("bench: (b) wake overhead and player.start()…")
        let wake = WakeOverhead(clock: clock, scheduler: scheduler, queue: queue, samples: Self.overheadSamples)
        var overhead = WakeOverhead.Method.allCases.map { BenchReport.overheadRow($0.rawValue, wake.run($0).overhead) }
        let start = try PlayerStartOverhead(clock: clock, scheduler: scheduler, samples: Self.playerStartSamples).run()
        overhead.append(BenchReport.overheadRow(PlayerStartOverhead.method, start.overhead))

        scheduler.cancelAll()
        let idleSpan = Duration.seconds(1)
        let idleCPU = ProcessCPUTime.measure { try? clock.sleep(for: idleSpan) }

        var lateness: [BenchReport.LatenessRow] = []
        var streams: [BenchReport.StreamRow] = []
        let conditions = [("idle", 0)] + (load > 0 ? [("load \(load)", load)] : [])
        for (condition, threads) in conditions {
            printError("bench: (a) \(condition): \(count) deadlines × \(TimingMethod.allCases.count) methods, then (c) a 1 kHz stream each…")
            let busy = BusyLoad(threads: threads)
            lateness += BenchReport.latenessRows(condition: condition, TimingMethod.allCases.map { periodic.run($0) })
            // Rounds alternate between the methods, so that what else the machine does at one
            // moment falls on one round of one method, not on one method's whole figure.
            var rounds: [TimingMethod: [PeriodicRunResult]] = [:]
            for _ in 0..<Self.streamRounds {
                for method in TimingMethod.streaming {
                    rounds[method, default: []].append(stream.run(method, stream: true, load: busy))
                }
            }
            streams += TimingMethod.streaming.map {
                BenchReport.streamRow(condition: condition, rounds[$0] ?? [], count: Self.streamCount)
            }
            busy.stop()
        }

        printError("bench: (d) sound and haptic onsets on the simulated board…")
        let sync = try SimulatedOnsets().run()

        printError("bench: (e) cold `hapticboard \(ColdPlay.arguments.joined(separator: " "))` × \(Self.coldPlayRuns)…")
        let coldRuns = try (0..<Self.coldPlayRuns).map { _ in try ColdPlay(clock: clock).run() }
        let coldPlay = BenchReport.ColdPlayRow(
            runs: coldRuns.count, toFirstWriteMilliseconds: coldRuns.map { $0.toFirstWrite.map(BenchReport.milliseconds) },
            maximumResidentMebibytes: coldRuns.map { Double($0.maximumResidentBytes) / 1_048_576 },
            memoryLocked: coldRuns.allSatisfy(\.memoryLocked)
        )

        let report = BenchReport(
            configuration: .init(
                count: count, periodMilliseconds: periodMilliseconds, loadThreads: load,
                cores: ProcessInfo.processInfo.activeProcessorCount, timingThread: Self.describe(scheduler.realtimeSetup),
                spinWindowMicroseconds: BenchReport.microseconds(scheduler.spinWindow)
            ),
            figures: BenchReport.figures(lateness: lateness, overhead: overhead, streams: streams, coldPlay: coldPlay, sync: sync),
            lateness: lateness, overhead: overhead, streams: streams,
            idleCPUPercentOfOneCore: BenchReport.percentOfOneCore(cpu: idleCPU, span: idleSpan),
            coldPlay: coldPlay, sync: sync, executableMebibytes: ExecutableSize.mebibytes
        )
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(report.text)
        }
    }

    /// `--inputs`: press → first bus write, idle and with --load, beside the scheduler's own
    /// wake-up and the host's (`DispatchQueue.async` after the same pause between presses: a
    /// thread woken from a wait that long, which on a virtual machine costs the idle vCPU's way
    /// out of halt) in the same run.
    private func runInputs(clock: SystemMonotonicClock) throws {
        var rows: [BenchReport.OverheadRow] = []
        var verdicts: [String] = []
        var ratios: [String] = []
        let queue = DispatchQueue(label: "hapticboard.bench.inputs", qos: .userInteractive)
        // Real-time threads are woken where they last ran, which may be a CPU asleep: each press is
        // timed with the kernel placing the threads and with them and the edge on one CPU.
        let placements: [Int?] = noRealtime ? [nil] : [nil, realtime.realtimeCPU ?? max(0, ProcessInfo.processInfo.activeProcessorCount - 1)]
        for (condition, threads) in [("idle", 0)] + (load > 0 ? [("load \(load)", load)] : []) {
            let busy = BusyLoad(threads: threads)
            var edgeRows: [(place: String, row: BenchReport.OverheadRow)] = []
            var placementVerdicts: [String] = []
            for cpu in placements {
                let place = cpu.map { "on CPU \($0)" } ?? (noRealtime ? "" : "on any CPU")
                printError("bench: --inputs \(condition) \(place): \(Self.inputSamples) presses…")
                let histogram = try InputLatency(clock: clock, realtime: !noRealtime, cpu: cpu, samples: Self.inputSamples).run()
                let threadsPlaced = cpu.map { ", threads and edge on CPU \($0)" } ?? (noRealtime ? "" : ", threads on any CPU")
                edgeRows.append((place, BenchReport.overheadRow("\(condition): GPIO edge → first bus write\(threadsPlaced)", histogram)))
                let met = histogram.percentile(99) <= (threads == 0 ? Self.inputGoalIdle : Self.inputGoalLoaded)
                placementVerdicts.append(((met ? "met " : "missed ") + place).trimmingCharacters(in: .whitespaces))
            }
            let scheduler = DeadlineScheduler(clock: clock, name: "hapticboard-bench")
            var hostWake = WakeOverhead(clock: clock, scheduler: scheduler, queue: queue, samples: Self.inputSamples)
            hostWake.pauseBetweenRequests = InputLatency.settle
            let woken = hostWake.run(.dispatchAsync).overhead
            scheduler.startThread(setup: noRealtime ? nil : realtime.timing)
            let start = try PlayerStartOverhead(clock: clock, scheduler: scheduler, samples: Self.playerStartSamples).run()
            scheduler.stopThread()
            busy.stop()
            let wakeRow = BenchReport.overheadRow(
                "\(condition): \(WakeOverhead.Method.dispatchAsync.rawValue) after \(Int(BenchReport.milliseconds(InputLatency.settle))) ms idle (the host's wake-up)", woken)
            rows += edgeRows.map(\.row) + [BenchReport.overheadRow("\(condition): \(PlayerStartOverhead.method)", start.overhead), wakeRow]
            let goal = threads == 0 ? Self.inputGoalIdle : Self.inputGoalLoaded
            verdicts.append("≤ \(BenchReport.microseconds(goal)) µs \(threads == 0 ? "idle" : "with --load \(load)"): \(placementVerdicts.joined(separator: ", "))")
            for (place, edgeRow) in edgeRows {
                if let ratio = Ratio.of(edgeRow.p99Microseconds, over: wakeRow.p99Microseconds, resolution: BenchReport.resolutionMicroseconds) {
                    ratios.append("\(condition)\(place.isEmpty ? "" : " " + place) \(ratio.text)")
                }
            }
        }
        if json {
            try printJSON(rows)
            return
        }
        print("inputs: simulated GPIO line, sim DRV2605L ready behind a zero-cost bus, \(noRealtime ? "ordinary threads" : "real-time threads where permitted")")
        for row in rows {
            print(String(format: "  %-84@ p50 %7.1f µs   p99 %7.1f µs   max %8.1f µs   (%d)", row.method as NSString, row.p50Microseconds, row.p99Microseconds, row.maxMicroseconds, row.samples))
        }
        print("  goal: edge → bus p99 \(verdicts.joined(separator: "; "))")
        if !ratios.isEmpty {
            print("  edge → bus p99 ÷ the host's wake-up p99 in the same run: \(ratios.joined(separator: ", "))")
        }
    }

    private static func describe(_ setup: RealtimeSetup?) -> String {
        guard let setup else { return "ordinary thread (real-time not requested)" }
        return [
            setup.schedulingError == nil ? "SCHED_FIFO \(setup.priority)" : "ordinary scheduling (SCHED_FIFO refused)",
            setup.timerSlackError == nil ? "timer slack \(RealtimeThread.timerSlackNanoseconds) ns" : "default timer slack",
            setup.memoryLockError == nil ? "memory locked as touched (MCL_ONFAULT)" : "memory not locked",
        ].joined(separator: ", ")
    }
}
