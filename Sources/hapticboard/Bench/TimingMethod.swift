/// The ways of waking at a deadline the benchmark compares.
enum TimingMethod: String, CaseIterable, Encodable {
    /// hapticboard's timing thread.
    case deadlineScheduler = "DeadlineScheduler"
    /// libdispatch timers on a serial queue, as Piano schedules its notes.
    case asyncAfter = "DispatchQueue.asyncAfter"
    /// Swift concurrency's sleep on ContinuousClock, default tolerance.
    case taskSleep = "Task.sleep(until:)"
    /// A bare thread sleeping with clock_nanosleep(TIMER_ABSTIME), SCHED_FIFO when permitted, as
    /// cyclictest does: the host's own wake-up latency, which no method can beat.
    case hostFloor = "host: clock_nanosleep (cyclictest-like)"

    /// The methods whose CPU use is compared on a 1 kHz stream (the host probe does no work).
    static let streaming: [TimingMethod] = [.deadlineScheduler, .asyncAfter, .taskSleep]
}
