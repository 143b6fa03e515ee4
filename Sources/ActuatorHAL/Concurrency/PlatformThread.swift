#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A POSIX thread, started detached with a name `top -H` and `ps -L` show: what hapticboard's
/// libraries use instead of Foundation's `Thread` (see `Lock` for why).
public struct PlatformThread: Sendable, Equatable {
    private let handle: pthread_t

    /// The calling thread.
    public static var current: PlatformThread { PlatformThread(handle: pthread_self()) }

    /// Starts `body` on a new thread named `name` (the kernel keeps 15 bytes of it).
    /// - Throws: `Errno`-style codes as `PlatformThreadError` when the system refuses a thread.
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) throws(PlatformThreadError) -> PlatformThread {
        let context = Unmanaged.passRetained(ThreadContext(name: name, body: body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var handle = pthread_t()
        let result = pthread_create(&handle, &attributes, { context in
            let thread = Unmanaged<ThreadContext>.fromOpaque(context!).takeRetainedValue()
            nameCurrentThread(thread.name)
            thread.body()
            return nil
        }, context)
        guard result == 0 else {
            Unmanaged<ThreadContext>.fromOpaque(context).release()
            throw PlatformThreadError(code: result)
        }
        return PlatformThread(handle: handle)
    }

    public static func == (lhs: PlatformThread, rhs: PlatformThread) -> Bool {
        pthread_equal(lhs.handle, rhs.handle) != 0
    }
}

/// Names the calling thread through /proc/thread-self/comm (pthread_setname_np is not visible to
/// Swift without _GNU_SOURCE); a kernel without it leaves the name inherited.
private func nameCurrentThread(_ name: String) {
    let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    defer { close(descriptor) }
    let bytes = Array(name.utf8.prefix(15))
    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
}

/// Why a thread could not be started (EAGAIN: out of threads or memory).
public struct PlatformThreadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The error number pthread_create returned.
    public var code: Int32

    public var description: String { "cannot start a thread: \(String(cString: strerror(code)))" }
}

/// What a new thread runs, handed over through pthread_create's argument.
private final class ThreadContext {
    let name: String
    let body: @Sendable () -> Void

    init(name: String, body: @escaping @Sendable () -> Void) {
        self.name = name
        self.body = body
    }
}
