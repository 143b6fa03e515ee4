import Foundation
import XCTest
@testable import hapticboard
#if canImport(Glibc)
import Glibc
#endif

/// sd_notify without libsystemd: the datagrams systemd reads, on a socket of the test's own.
final class SystemdNotifierTests: XCTestCase {
    func testReadinessStoppingAndWatchdogReachTheNotifySocket() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("notify-\(UUID().uuidString)").path
        let listener = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        XCTAssertGreaterThanOrEqual(listener, 0)
        defer {
            close(listener)
            unlink(path)
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (index, byte) in path.utf8.enumerated() { bytes[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        XCTAssertEqual(bound, 0)

        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": path, "WATCHDOG_USEC": "10000000"])
        XCTAssertEqual(notifier.watchdogInterval, .seconds(5))
        notifier.ready(status: "serving board sim")
        notifier.watchdog()
        notifier.stopping()
        var messages: [String] = []
        for _ in 0..<3 {
            var buffer = [UInt8](repeating: 0, count: 512)
            let count = recv(listener, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            guard count > 0 else { break }
            messages.append(String(decoding: buffer[..<count], as: UTF8.self))
        }
        XCTAssertEqual(messages, ["READY=1\nSTATUS=serving board sim", "WATCHDOG=1", "STOPPING=1"])
        XCTAssertNil(SystemdNotifier(environment: [:]).socketPath, "outside systemd nothing is sent")
    }
}
