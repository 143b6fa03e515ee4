import Foundation
import HapticRuntime
import NIOCore
#if canImport(Glibc)
import Glibc
#endif

/// The command's side of a running service: requests over its Unix socket (`ServiceHTTP`), for
/// `hapticboard client …` and for `play`, which uses the service when one is running.
struct ServiceConnection {
    let socketPath: String

    /// The socket `serve` uses by default, or `$HAPTICBOARD_SOCKET`.
    static var defaultSocketPath: String {
        ProcessInfo.processInfo.environment[ServeCommand.socketEnvironmentVariable] ?? ServeCommand.defaultSocket
    }

    /// Whether a server accepts connections at `path` (a socket file can outlive its server).
    static func isServing(at path: String) -> Bool {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in bytes.enumerated() { buffer[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        return connected == 0
    }

    /// An answer: its status and body.
    struct Answer {
        var status: Int
        var body: Data

        /// The body decoded as `type`, or the service's error.
        func decoded<Value: Decodable>(_ type: Value.Type) throws -> Value {
            guard (200..<300).contains(status) else { throw refusal }
            return try JSONDecoder().decode(type, from: body)
        }

        /// The service's refusal as an error whose description is its message.
        var refusal: ServiceRefusal {
            let detail = try? JSONDecoder().decode(ServeError.Body.self, from: body).error
            return ServiceRefusal(status: status, code: detail?.code ?? "http-\(status)", message: detail?.message ?? String(decoding: body, as: UTF8.self), line: detail?.line, column: detail?.column)
        }
    }

    /// One request; the connection closes with it (so feedback started without `outlive` or
    /// `wait` would stop at once — callers ask for one of them).
    func request(_ method: String, _ path: String, body: String? = nil) async throws -> Answer {
        try await Self.request(method, path, at: .unixSocket(path: socketPath), body: body)
    }

    /// One request to `endpoint` (the Unix socket, or the TCP listener with its `token`); the
    /// body is read up to 16 MiB.
    static func request(_ method: String, _ path: String, at endpoint: ServiceEndpoint, token: String? = nil, body: String? = nil) async throws -> Answer {
        var answer = Answer(status: 0, body: Data())
        try await ServiceHTTP.exchange(method, path, at: endpoint, token: token, body: body) { part in
            switch part {
            case .status(let status): answer.status = status
            case .body(let chunk):
                answer.body.append(contentsOf: chunk.readableBytesView)
                guard answer.body.count <= 16 << 20 else {
                    throw ServiceRefusal(status: answer.status, code: "answer-too-large", message: "the service's answer to \(method) \(path) is over 16 MiB")
                }
            }
            return true
        }
        return answer
    }

    /// Reads `GET /events` line by line until `handle` returns false or the service closes it.
    func events(_ handle: (String) -> Bool) async throws {
        var status = 0
        var pending = Data()
        // The stream may stay quiet for as long as nothing happens.
        try await ServiceHTTP.exchange("GET", "/events", at: .unixSocket(path: socketPath), silenceLimit: nil) { part in
            switch part {
            case .status(let code): status = code
            case .body(let chunk): pending.append(contentsOf: chunk.readableBytesView)
            }
            // A refusal's body is its error, not events.
            guard (200..<300).contains(status) else { return true }
            while let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending.removeSubrange(pending.startIndex...newline)
                if !handle(line) { return false }
            }
            return true
        }
        guard (200..<300).contains(status) else { throw Answer(status: status, body: pending).refusal }
    }

    /// Runs `body` to its end from synchronous code (a command's `run()`), on the concurrency
    /// pool, and returns or throws what it did.
    static func blocking<Value: Sendable>(_ body: @escaping @Sendable () async throws -> Value) throws -> Value {
        let outcome = BlockingOutcome<Value>()
        let done = DispatchSemaphore(value: 0)
        Task {
            do { outcome.result = .success(try await body()) } catch { outcome.result = .failure(error) }
            done.signal()
        }
        done.wait()
        return try outcome.result!.get()
    }
}

/// A refusal from the service, printed as its message; status 0 when no answer came (no service,
/// a connection broken mid-answer).
struct ServiceRefusal: Error, CustomStringConvertible {
    var status: Int
    var code: String
    var message: String
    var line: Int?
    var column: Int?

    var description: String {
        guard status != 0 else { return message }
        let place = line.map { "\($0):\(column ?? 0): " } ?? ""
        return "the service refused (\(code)): \(place)\(message)"
    }
}

private final class BlockingOutcome<Value>: @unchecked Sendable {
    var result: Result<Value, any Error>?
}
