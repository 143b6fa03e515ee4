import ActuatorHAL
import Dispatch

/// Reads an input device's keys (`inputs: evdev:`) on a thread of its own and hands each press
/// and release of a mapped key to the bindings, inline, as `InputLineReader` does for a line.
/// Keys need no debounce (the keyboard's controller has done it) and carry the kernel's time.
public final class InputKeyReader: @unchecked Sendable {
    public let source: any KeyEventSource
    /// Input names by key code.
    private let names: [UInt16: [String]]
    private let bindings: InputBindings?
    private let lock = Lock()
    private var stopping = false
    private var started = false
    private var failureValue: KeySourceError?
    private let finished = DispatchSemaphore(value: 0)
    /// Called with every decoded event before the bindings act on it (on the reader's thread).
    public var eventHandler: (@Sendable (InputEvent) -> Void)?
    /// Called once when the device fails (unplugged, a read error).
    public var failureHandler: (@Sendable (KeySourceError) -> Void)?

    /// A reader of `source` whose `keys` (input name → key code) are inputs.
    public init(source: any KeyEventSource, keys: [String: UInt16], bindings: InputBindings?) {
        self.source = source
        names = Dictionary(grouping: keys.keys.sorted(), by: { keys[$0] ?? 0 })
        self.bindings = bindings
    }

    /// The error that ended the reader, if one did.
    public var failure: KeySourceError? {
        lock.withLock { failureValue }
    }

    /// Waits up to `timeout` for one key and acts on it; returns the events. One turn of the thread.
    @discardableResult
    public func step(timeout: Duration) throws(KeySourceError) -> [InputEvent] {
        guard let key = try source.waitForKey(timeout: timeout) else { return [] }
        let events = (names[key.code] ?? []).map { InputEvent(input: $0, kind: key.pressed ? .press : .release, timestamp: key.timestamp) }
        for event in events {
            eventHandler?(event)
            bindings?.receive(event)
        }
        return events
    }

    /// Starts the reader's thread, set up by `threadSetup` (real-time priority, where permitted).
    /// - Throws: `PlatformThreadError` when the system refuses a thread; nothing is read then.
    public func start(threadSetup: (any TimingThreadSetup)? = nil) throws(PlatformThreadError) {
        // Set first, so a `stop` from now on waits for the thread.
        lock.withLock { started = true }
        do {
            _ = try PlatformThread.start(name: "hapticboard-keys") { [self] in
                _ = threadSetup?.configureCurrentThread()
                while !lock.withLock({ stopping }) {
                    do throws(KeySourceError) {
                        try step(timeout: InputLineReader.pollInterval)
                    } catch {
                        lock.withLock { failureValue = error }
                        failureHandler?(error)
                        break
                    }
                }
                finished.signal()
            }
        } catch {
            lock.withLock { started = false }
            throw error
        }
    }

    /// Stops the thread and waits for it (at most one poll interval).
    public func stop() {
        let running = lock.withLock { () -> Bool in
            defer { stopping = true }
            return started && !stopping
        }
        if running { finished.wait() }
    }
}
