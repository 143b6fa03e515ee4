import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// systemd's readiness protocol (`sd_notify(3)`) without libsystemd: one datagram to the socket
/// `$NOTIFY_SOCKET` names (a path, or `@` for the abstract namespace). Outside systemd there is
/// no such variable and every call does nothing.
struct SystemdNotifier: Sendable {
    /// Where systemd listens; nil when not run by it.
    let socketPath: String?
    /// `WatchdogSec=` as the interval to ping at (half the timeout, as sd_watchdog_enabled advises).
    let watchdogInterval: Duration?

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        socketPath = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        let pidMatches = environment["WATCHDOG_PID"].map { Int32($0) == getpid() } ?? true
        watchdogInterval = environment["WATCHDOG_USEC"].flatMap(Int64.init).flatMap { pidMatches && $0 > 0 ? .microseconds($0 / 2) : nil }
    }

    /// `READY=1`: serving.
    func ready(status: String) { send("READY=1\nSTATUS=\(status)") }
    /// `STOPPING=1`: shutting down.
    func stopping() { send("STOPPING=1") }
    /// `RELOADING=1` … `READY=1` around a reload (SIGHUP), with the monotonic time systemd asks for.
    func reloading() { send("RELOADING=1\nMONOTONIC_USEC=\(Self.monotonicMicroseconds())") }
    /// `WATCHDOG=1`: alive.
    func watchdog() { send("WATCHDOG=1") }

    private func send(_ message: String) {
        guard let socketPath else { return }
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var path = Array(socketPath.utf8)
        let abstract = path.first == UInt8(ascii: "@")
        if abstract { path[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.count < capacity else { return }
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (index, byte) in path.enumerated() { bytes[index] = byte }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + path.count + (abstract ? 0 : 1))
        _ = message.withCString { text in
            withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                    sendto(descriptor, text, strlen(text), Int32(MSG_NOSIGNAL), socketAddress, length)
                }
            }
        }
    }

    private static func monotonicMicroseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1_000
    }
}
