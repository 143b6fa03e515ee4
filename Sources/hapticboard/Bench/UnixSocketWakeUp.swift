import ActuatorHAL
import ActuatorHALLinux
import Foundation
import HapticRuntime
#if canImport(Glibc)
import Glibc
#endif

/// The host's own part of a socket trigger, measured beside it: a write on a Unix stream socket →
/// a thread blocked in `poll` on the other end has read it, the pause before each write the same
/// as the triggers'. NIO's event loop blocks in `epoll_wait` and is woken the same way (the
/// socket's wait queue), so no service can answer a trigger sooner than this; what a trigger
/// takes beyond it is the service's (HTTP, the play, the write). On a virtual machine whose other
/// CPU halts while idle this wake-up alone is tens of microseconds.
struct UnixSocketWakeUp {
    let clock: SystemMonotonicClock
    let samples: Int
    let pause: Duration

    func run() throws -> LatenessHistogram {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            throw CommandLineError.content("socketpair: \(String(cString: strerror(errno)))")
        }
        let (client, server) = (ends[0], ends[1])
        defer { close(client) }
        let reader = SocketReader(descriptor: server, clock: clock)
        let thread = Thread { reader.run() }
        thread.start()
        var histogram = LatenessHistogram()
        var byte: UInt8 = 1
        for _ in 0..<samples {
            try clock.sleep(for: pause)
            reader.requested = clock.now
            guard write(client, &byte, 1) == 1, read(client, &byte, 1) == 1, let woken = reader.woken else {
                throw CommandLineError.content("the Unix-socket wake-up peer stopped answering")
            }
            histogram.record(woken)
        }
        // Closing our end ends the reader (it reads 0 bytes) and it closes its own.
        return histogram
    }
}

/// The thread on the far end: waits in poll, reads a byte, notes how long after the write it got
/// it, answers with a byte (so the writer knows the figure is there).
private final class SocketReader: @unchecked Sendable {
    private let descriptor: Int32
    private let clock: SystemMonotonicClock
    /// Set by the writer before each write; read here only after the write's byte arrived.
    var requested = MonotonicInstant.zero
    /// The last wake-up, read by the writer only after the answer's byte arrived.
    private(set) var woken: Duration?

    init(descriptor: Int32, clock: SystemMonotonicClock) {
        self.descriptor = descriptor
        self.clock = clock
    }

    func run() {
        defer { close(descriptor) }
        var interest = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        var byte: UInt8 = 0
        while true {
            let count = poll(&interest, 1, -1)
            if count < 0, errno == EINTR { continue }
            guard count == 1, read(descriptor, &byte, 1) == 1 else { return }
            woken = clock.now - requested
            guard write(descriptor, &byte, 1) == 1 else { return }
        }
    }
}
