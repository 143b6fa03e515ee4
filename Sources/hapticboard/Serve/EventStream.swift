import Foundation
import HapticRuntime
import HummingbirdCore
import NIOCore

/// `GET /events`: every service event as one JSON object per line (NDJSON), for as long as the
/// client stays connected (`curl --unix-socket … /events`, `hapticboard client events`).
enum EventStream {
    /// Writes events to `writer` until the client goes away or the service shuts down (an open
    /// stream must not hold up SIGTERM: the server waits for every request to end).
    static func write(service: HapticService, to writer: consuming any ResponseBodyWriter) async throws {
        let (events, continuation) = AsyncStream.makeStream(of: ServiceEvent.self, bufferingPolicy: .bufferingNewest(1_024))
        let token = service.subscribe({ continuation.yield($0) }, ended: { continuation.finish() })
        defer { service.unsubscribe(token) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A first line at once, so a client knows the stream is open.
        try await writer.write(ByteBuffer(string: #"{"event":"subscribed"}"# + "\n"))
        for await event in events {
            var line = try encoder.encode(event)
            line.append(0x0A)
            try await writer.write(ByteBuffer(bytes: line))
        }
        // The stream ended with the service: end the chunked response too. Hummingbird leaves a
        // closure-written body open until `finish`, and the server's graceful shutdown waits
        // for the response to end.
        try await writer.finish(nil)
    }
}
