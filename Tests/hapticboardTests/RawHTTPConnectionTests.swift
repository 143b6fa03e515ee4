import Foundation
#if canImport(Glibc)
import Glibc
#endif
import XCTest
@testable import hapticboard

/// The benchmark's raw WebSocket client against a peer that pings it, as Hummingbird's server does
/// every 30 s: a run slower than that (valgrind, a slow Pi) read the ping's payload as the answer
/// to its trigger, and a client that never answers is closed by the server.
final class RawHTTPConnectionTests: XCTestCase {
    func testAPingIsAnsweredWithItsPongAndTheNextDataFrameIsRead() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("raw-ws-\(getpid()).sock").path
        unlink(path)
        defer { unlink(path) }
        let listener = try Self.listen(at: path)
        defer { close(listener) }

        // The peer: a ping carrying "abc", then a text frame; it keeps what the client sends back.
        let received = Received()
        let peer = Thread {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            defer { close(connection) }
            let frames: [UInt8] = [0x89, 3] + Array("abc".utf8) + [0x81, 5] + Array("hello".utf8)
            _ = frames.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
            var reply = [UInt8](repeating: 0, count: 64)
            let count = reply.withUnsafeMutableBytes { read(connection, $0.baseAddress, $0.count) }
            received.set(Array(reply.prefix(max(0, count))))
        }
        peer.start()

        let client = try RawHTTPConnection(socketPath: path, receiveTimeout: .seconds(10))
        XCTAssertEqual(try client.readWebSocketFrame(), "hello")
        let pong = try XCTUnwrap(received.wait())
        XCTAssertEqual(pong.count, 2 + 4 + 3, "a masked frame of three bytes: \(pong)")
        XCTAssertEqual(pong[0], 0x8A, "FIN and pong")
        XCTAssertEqual(pong[1], 0x80 | 3, "masked, three bytes")
        let mask = Array(pong[2..<6])
        XCTAssertEqual(pong[6...].enumerated().map { $1 ^ mask[$0 % 4] }, Array("abc".utf8), "the ping's payload")
    }

    private static func listen(at path: String) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (index, byte) in path.utf8.enumerated() where index < bytes.count - 1 { bytes[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard descriptor >= 0, bound == 0, Glibc.listen(descriptor, 1) == 0 else {
            throw XCTSkip("cannot listen on a Unix socket here: \(String(cString: strerror(errno)))")
        }
        return descriptor
    }
}

/// What the peer thread read, handed to the test.
private final class Received: @unchecked Sendable {
    private let condition = NSCondition()
    private var bytes: [UInt8]?

    func set(_ value: [UInt8]) {
        condition.lock()
        bytes = value
        condition.signal()
        condition.unlock()
    }

    func wait() -> [UInt8]? {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date().addingTimeInterval(10)
        while bytes == nil, condition.wait(until: deadline) {}
        return bytes
    }
}
