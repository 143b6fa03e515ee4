import NIOCore

/// A task executor that runs jobs on one NIO event loop. `serve` runs each connection's task on
/// the event loop that reads its socket (`withTaskExecutorPreference`), so a request is read,
/// decoded and handled on one thread instead of being handed to Swift's global executor, whose
/// idle thread must first be woken: that hand-over was a wake-up per request on the trigger path.
final class EventLoopTaskExecutor: TaskExecutor {
    let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
