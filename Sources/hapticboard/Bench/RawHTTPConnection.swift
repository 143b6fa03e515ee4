import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One kept-alive HTTP/1.1 connection, on a Unix socket or to a loopback TCP port, for a
/// benchmark's fixed requests: the request is a constant, the answer read up to its
/// Content-Length. It can also switch to WebSocket and send and read single frames, so that a
/// WebSocket trigger is timed from the client's own write(2), as an HTTP one is.
final class RawHTTPConnection {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// The head of the last answer read: status line and header lines.
    private(set) var lastHead = ""
    /// The body of the last answer read.
    private(set) var lastBody: [UInt8] = []

    /// With `receiveTimeout`, a read that waits longer throws instead of blocking for good.
    convenience init(socketPath: String, receiveTimeout: Duration? = nil) throws {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (index, byte) in socketPath.utf8.enumerated() where index < bytes.count - 1 { bytes[index] = byte }
        }
        try self.init(family: AF_UNIX, address: address, receiveTimeout: receiveTimeout, naming: socketPath)
    }

    /// A connection to `port` on 127.0.0.1, without Nagle's delay (a frame goes out when written).
    convenience init(loopbackPort port: Int, receiveTimeout: Duration? = nil) throws {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        try self.init(family: AF_INET, address: address, receiveTimeout: receiveTimeout, naming: "127.0.0.1:\(port)")
        var on: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    }

    private init<Address>(family: Int32, address: Address, receiveTimeout: Duration?, naming name: String) throws {
        descriptor = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        if let receiveTimeout {
            let (seconds, attoseconds) = receiveTimeout.components
            var limit = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        }
        var address = address
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<Address>.size)) }
        }
        guard descriptor >= 0, connected == 0 else { throw CommandLineError.content("cannot connect to \(name)") }
    }

    deinit { close(descriptor) }

    /// Sends `POST path` and returns the answer's status.
    func post(_ path: String) throws -> Int {
        try send(post: path)
        return try readResponse()
    }

    func send(post path: String) throws {
        try send(raw: "POST \(path) HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n\r\n")
    }

    /// Writes `text` as it is: a request, part of one, or a body.
    func send(raw text: String) throws {
        try send(bytes: Array(text.utf8))
    }

    private func send(bytes: [UInt8]) throws {
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw CommandLineError.content("write to the service failed") }
    }

    /// Reads one answer (an interim `100 Continue` is one); its status. The answer to a `HEAD`
    /// (`toHEAD`) has no body whatever its `Content-Length` says.
    func readResponse(toHEAD: Bool = false) throws -> Int {
        while true {
            if let end = headerEnd() {
                let header = String(decoding: buffer[..<end], as: UTF8.self)
                let length = toHEAD ? 0 : header.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                if buffer.count >= end + 4 + length {
                    lastBody = Array(buffer[(end + 4)..<(end + 4 + length)])
                    buffer.removeFirst(end + 4 + length)
                    lastHead = header
                    return Int(header.split(separator: " ")[1]) ?? 0
                }
            }
            guard try readMore() else { throw CommandLineError.content("the service closed the connection") }
        }
    }

    /// Whether the service closed the connection: true at the end of the stream, false when more
    /// bytes came instead; throws when nothing came within the receive timeout.
    func isClosedByTheService() throws -> Bool {
        try !readMore()
    }

    // MARK: WebSocket (RFC 6455)

    /// Asks to switch to WebSocket at `path` (the handshake of §4.1 with the RFC's own sample
    /// key); throws unless the service answers 101 Switching Protocols. `early` text messages go
    /// out in the same write as the handshake, before its answer, as a client must not send them
    /// (§4.1) — to check what the service makes of one that does.
    func upgradeToWebSocket(_ path: String, early: [String] = []) throws {
        let handshake = "GET \(path) HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        try send(bytes: Array(handshake.utf8) + early.flatMap { try Self.webSocketFrame(0x1, Array($0.utf8)) })
        let status = try readResponse()
        guard status == 101 else { throw CommandLineError.content("the service answered \(status) to the WebSocket handshake") }
    }

    /// Sends `text` as one text frame, masked as every client frame must be (§5.3); one write.
    func send(webSocketText text: String) throws {
        try send(webSocketFrame: 0x1, Array(text.utf8))
    }

    /// Sends each of `texts` as a text frame, all in one write.
    func send(webSocketTexts texts: [String]) throws {
        try send(bytes: texts.flatMap { try Self.webSocketFrame(0x1, Array($0.utf8)) })
    }

    /// Sends one final frame of `opcode` carrying `payload`, masked (§5.3); one write.
    private func send(webSocketFrame opcode: UInt8, _ payload: [UInt8]) throws {
        try send(bytes: Self.webSocketFrame(opcode, payload))
    }

    /// One final frame of `opcode` carrying `payload`, masked (§5.3).
    private static func webSocketFrame(_ opcode: UInt8, _ payload: [UInt8]) throws -> [UInt8] {
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        var frame: [UInt8] = [0x80 | opcode]   // FIN
        switch payload.count {
        case ..<126: frame.append(0x80 | UInt8(payload.count))
        case ...0xFFFF: frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default: throw CommandLineError.content("a benchmark's WebSocket message is short")
        }
        frame += mask
        frame += payload.enumerated().map { $1 ^ mask[$0 % 4] }
        return frame
    }

    /// Reads one unfragmented, unmasked data frame from the service; its payload as text. A ping
    /// on the way is answered with its pong (§5.5.2: the service closes a connection that does
    /// not answer its pings, which a run slower than their period would meet), a pong skipped,
    /// a close reported.
    func readWebSocketFrame() throws -> String {
        while true {
            let (opcode, payload) = try readAnyWebSocketFrame()
            switch opcode {
            case 0x9: try send(webSocketFrame: 0xA, payload)
            case 0xA: continue
            case 0x8: throw CommandLineError.content("the service closed the WebSocket")
            default: return String(decoding: payload, as: UTF8.self)
            }
        }
    }

    /// The next whole frame: its opcode and payload.
    private func readAnyWebSocketFrame() throws -> (opcode: UInt8, payload: [UInt8]) {
        while true {
            if buffer.count >= 2 {
                var length = Int(buffer[1] & 0x7F)
                var start = 2
                if length == 126, buffer.count >= 4 {
                    length = Int(buffer[2]) << 8 | Int(buffer[3])
                    start = 4
                } else if length == 127, buffer.count >= 10 {
                    length = buffer[2..<10].reduce(0) { $0 << 8 | Int($1) }
                    start = 10
                }
                if length < 126 || start > 2, buffer.count >= start + length {
                    let frame = (opcode: buffer[0] & 0x0F, payload: Array(buffer[start..<(start + length)]))
                    buffer.removeFirst(start + length)
                    return frame
                }
            }
            guard try readMore() else { throw CommandLineError.content("the service closed the connection") }
        }
    }

    /// Reads what is there into the buffer; false at the end of the stream.
    private func readMore() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count >= 0 else { throw CommandLineError.content("no answer from the service: \(String(cString: strerror(errno)))") }
        buffer += chunk[..<count]
        return count > 0
    }

    private func headerEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4) where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index
        }
        return nil
    }
}
