import ActuatorHAL
import ActuatorHALLinux
import Dispatch
import Foundation
import HapticRuntime

/// Wakes at the same periodic CLOCK_MONOTONIC deadlines with each `TimingMethod` and records
/// lateness = time the callback starts − deadline.
struct PeriodicDeadlines {
    let clock: SystemMonotonicClock
    let scheduler: DeadlineScheduler
    let queue: DispatchQueue
    /// Whether the host probe asks for SCHED_FIFO, as the timing thread does.
    let realtime: Bool
    /// Time between deadlines.
    let period: Duration
    /// Deadlines per run.
    let count: Int

    /// Time from scheduling to the first deadline: long enough to queue every deadline first.
    static let startDelay = Duration.milliseconds(50)
    /// How long after the last deadline to wait for stragglers before giving up.
    static let grace = Duration.seconds(2)

    /// One run of `method`; with `stream` the scheduler's commands are one amplitude stream (late
    /// values resync), otherwise control commands (every deadline runs, however late). `load`'s
    /// CPU time is taken out of the process's, so `cpu` is the method's own.
    func run(_ method: TimingMethod, stream: Bool = false, load: BusyLoad? = nil) -> PeriodicRunResult {
        let recorder = LatenessRecorder(lateBeyond: period)
        let first = clock.now + Self.startDelay
        let deadlines = (0..<count).map { first + period * $0 }
        let last = deadlines.last ?? first
        var completed = false
        var cpu = Duration.zero
        let loadBefore = load?.cpuTime ?? .zero
        let steal = HostStealTime.measure { cpu = ProcessCPUTime.measure {
            switch method {
            case .deadlineScheduler: startScheduler(deadlines, stream: stream, recorder: recorder)
            case .asyncAfter: startAsyncAfter(deadlines, recorder: recorder)
            case .taskSleep: startTaskSleep(deadlines, recorder: recorder)
            case .hostFloor: startHostFloor(deadlines, recorder: recorder)
            }
            let giveUp = Date(timeIntervalSinceNow: (last - clock.now + Self.grace).secondsValue)
            completed = recorder.waitForSamples(count, giveUp: giveUp)
            // Resynced stream values never record: wait out the run so every method covers the same span.
            try? clock.sleep(until: last + period)
        } }
        let loadCPU = (load?.cpuTime ?? .zero) - loadBefore
        let lateness = recorder.snapshot
        return PeriodicRunResult(
            method: method, lateness: lateness, missing: completed ? 0 : count - lateness.count,
            latePastOnePeriod: recorder.lateSamples + count - lateness.count, cpu: max(cpu - loadCPU, .zero),
            span: last + period - first, hostSteal: steal
        )
    }

    private func startScheduler(_ deadlines: [MonotonicInstant], stream: Bool, recorder: LatenessRecorder) {
        let commandClass: CommandClass = stream ? .stream(StreamID("bench/amplitude")) : .control
        let clock = clock
        for deadline in deadlines {
            scheduler.schedule(at: deadline, class: commandClass, costKey: "bench/record") {
                recorder.record(clock.now - deadline)
            }
        }
    }

    private func startAsyncAfter(_ deadlines: [MonotonicInstant], recorder: LatenessRecorder) {
        // DispatchTime counts CLOCK_MONOTONIC on Linux; mapping through one pair of readings keeps
        // every deadline identical to the other methods'.
        let dispatchBase = DispatchTime.now()
        let monotonicBase = clock.now
        let clock = clock
        for deadline in deadlines {
            let offset = UInt64(max(0, (deadline - monotonicBase).nanoseconds))
            queue.asyncAfter(deadline: DispatchTime(uptimeNanoseconds: dispatchBase.uptimeNanoseconds + offset)) {
                recorder.record(clock.now - deadline)
            }
        }
    }

    private func startHostFloor(_ deadlines: [MonotonicInstant], recorder: LatenessRecorder) {
        let clock = clock
        let realtime = realtime
        let thread = Thread {
            if realtime { _ = RealtimeThread(lockingMemory: false).configureCurrentThread() }
            for deadline in deadlines {
                guard (try? clock.sleep(until: deadline)) != nil else { return }
                recorder.record(clock.now - deadline)
            }
        }
        thread.name = "hapticboard-bench-host"
        thread.start()
    }

    private func startTaskSleep(_ deadlines: [MonotonicInstant], recorder: LatenessRecorder) {
        let continuousBase = ContinuousClock.now
        let monotonicBase = clock.now
        let clock = clock
        Task.detached {
            for deadline in deadlines {
                do {
                    try await Task.sleep(until: continuousBase + (deadline - monotonicBase), clock: .continuous)
                } catch {
                    return
                }
                recorder.record(clock.now - deadline)
            }
        }
    }
}

/// What one run of one method measured.
struct PeriodicRunResult {
    var method: TimingMethod
    var lateness: LatenessHistogram
    /// Deadlines whose callback never came (or, for a stream, values skipped by resync).
    var missing: Int
    /// Deadlines served more than one period late, or never (a value skipped by resync was late).
    var latePastOnePeriod: Int
    /// Process CPU time over the run, less the busy threads' of the loaded condition.
    var cpu: Duration
    /// Wall time the run covered.
    var span: Duration
    /// CPU time the hypervisor took from this VM during the run (nil where not reported).
    var hostSteal: Duration?
}
