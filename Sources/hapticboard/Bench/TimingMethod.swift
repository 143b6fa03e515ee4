/// The ways of waking at a deadline the benchmark compares.
enum TimingMethod: String, CaseIterable, Encodable {
    /// hapticboard's timing thread.
    case deadlineScheduler = "DeadlineScheduler"
    /// libdispatch timers on a serial queue, as Piano schedules its notes.
    case asyncAfter = "DispatchQueue.asyncAfter"
    /// Swift concurrency's sleep on ContinuousClock, default tolerance.
    case taskSleep = "Task.sleep(until:)"
}
