import Hummingbird
import NIOCore
import NIOPosix

/// The service's one network thread, which also runs its request handlers.
///
/// Hummingbird reads a request on a NIO event loop and hands it to a task on Swift's cooperative
/// pool: a second thread to wake before a trigger reaches the engine. A local haptics service
/// needs no more than one network thread, so the listeners run on one event loop and, through a
/// task executor preference that every connection's task inherits, so do the handlers: a
/// trigger's bytes are read, decoded and started on the engine on the thread that woke for them.
/// Handlers must not block (none does: waiting for a player's end is a continuation, and the
/// engine's own locks are held for microseconds).
struct ServeEventLoop: Sendable {
    let group: MultiThreadedEventLoopGroup
    private let executor: EventLoopTaskExecutor

    init() {
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        executor = EventLoopTaskExecutor(eventLoop: group.next())
    }

    /// The listeners' event loops: the one thread.
    var provider: EventLoopGroupProvider { .shared(group) }

    /// Runs `body` (the service group) with its tasks preferring the event loop's thread.
    func run(_ body: () async throws -> Void) async throws {
        try await withTaskExecutorPreference(executor, operation: body)
    }
}

/// Runs tasks' jobs on a NIO event loop (`TaskExecutor`, SE-0417).
private final class EventLoopTaskExecutor: TaskExecutor, Sendable {
    let eventLoop: any EventLoop

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
