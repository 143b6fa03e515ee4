import ActuatorHAL
import Dispatch

/// Reads one input line on a thread of its own and hands each edge to the decoder, then each
/// event to the bindings, inline: no queue between the kernel's event buffer and the service,
/// so a press reaches the scheduler (and, when due at once, the bus) on this thread.
///
/// A line that fails (unplugged chip, revoked permission) ends its reader with the error in
/// `failure` and one warning; the other lines and the service go on.
public final class InputLineReader: @unchecked Sendable {
    /// The longest wait for an edge before the reader checks whether it should stop.
    public static let pollInterval = Duration.milliseconds(100)

    public let line: any ConfiguredDigitalInput
    public let role: InputDecoder.LineRole
    private let decoder: InputDecoder
    private let bindings: InputBindings?
    private let lock = Lock()
    private var stopping = false
    private var thread: PlatformThread?
    private var failureValue: GPIOError?
    private let finished = DispatchSemaphore(value: 0)
    /// Called with every raw edge as the line reported it, before decoding (on the reader's thread).
    public var edgeHandler: (@Sendable (InputDecoder.LineRole, EdgeEvent) -> Void)?
    /// Called with every decoded event before the bindings act on it (on the reader's thread).
    public var eventHandler: (@Sendable (InputEvent) -> Void)?
    /// Called once when the line fails.
    public var failureHandler: (@Sendable (InputDecoder.LineRole, GPIOError) -> Void)?

    /// A reader of `line`, whose edge timestamps are on `clock`.
    public init(line: any ConfiguredDigitalInput, role: InputDecoder.LineRole, clock: any MonotonicClock, decoder: InputDecoder, bindings: InputBindings?) {
        self.line = line
        self.clock = clock
        self.role = role
        self.decoder = decoder
        self.bindings = bindings
    }

    /// The error that ended the reader, if one did.
    public var failure: GPIOError? {
        lock.lock()
        defer { lock.unlock() }
        return failureValue
    }

    /// Waits up to `timeout` (less when a debounce period ends sooner) for one edge and acts on it
    /// and on any settled level; returns the events. The thread's loop, one turn; tests call it
    /// on a simulated line.
    @discardableResult
    public func step(timeout: Duration) throws(GPIOError) -> [InputEvent] {
        var wait = timeout
        if let deadline = decoder.nextDeadline {
            wait = min(wait, max(deadline - clock.now, .zero))
        }
        var events: [InputEvent] = []
        if let edge = try line.waitForEdge(timeout: wait) {
            edgeHandler?(role, edge)
            events = decoder.receive(edge, on: role)
        }
        events += decoder.settle(at: clock.now)
        for event in events {
            eventHandler?(event)
            bindings?.receive(event)
        }
        return events
    }

    /// The clock the line's timestamps are on, for settling debounce periods between edges.
    public let clock: any MonotonicClock

    /// Starts the reader's thread.
    /// - Throws: `PlatformThreadError` when the system refuses a thread; nothing is read then.
    public func start(threadSetup: (any TimingThreadSetup)? = nil) throws(PlatformThreadError) {
        // Held while the thread starts, so `stop` sees it (and waits for it) once it exists.
        lock.lock()
        defer { lock.unlock() }
        thread = try PlatformThread.start(name: "hapticboard-input \(role.input)") { [self] in
            // A press waits on this thread before anything else: under load it must not queue
            // behind ordinary threads for a time slice.
            _ = threadSetup?.configureCurrentThread()
            while !isStopping {
                do throws(GPIOError) {
                    try step(timeout: Self.pollInterval)
                } catch {
                    lock.lock()
                    failureValue = error
                    lock.unlock()
                    failureHandler?(role, error)
                    break
                }
            }
            finished.signal()
        }
    }

    /// Stops the thread and waits for it (at most one poll interval).
    public func stop() {
        lock.lock()
        let running = thread != nil && !stopping
        stopping = true
        lock.unlock()
        if running { finished.wait() }
    }

    private var isStopping: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopping
    }
}
