import ActuatorHAL
import ActuatorHALLinux
import Foundation
import HapticRuntime
import HardwareMocks
import Hummingbird
import Logging
import ServiceLifecycle
#if canImport(Glibc)
import Glibc
#endif

/// `bench --service`: the service in this process on the sim board's chip behind a zero-cost bus,
/// its API on a Unix socket and a loopback TCP listener, measured the way clients use it:
/// (a) a trigger over the socket (one kept-alive connection) → the first bus write of it, beside
/// the direct engine path (`player.start`) and the host's own Unix-socket wake-up
/// (`UnixSocketWakeUp`, the floor no service goes below) in the same run; (b) a WebSocket
/// trigger → first write, from the client's write(2) of its frame, and the same through
/// Hummingbird's WebSocket client;
/// (c) sustained triggers from 50 concurrent clients: rate, lost, errors, and the resident memory
/// and the malloc heap in use after the first 10,000 triggers and at the end; (d) the service's CPU
/// while idle.
struct ServiceBench {
    /// The trigger: UIKit's rigid impact (a ROM effect on the sim chip).
    static let route = "/feedback/impact/rigid"
    static let settle = Duration.milliseconds(20)
    static let patience = Duration.seconds(2)
    static let clients = 50
    static let token = "hapticboard-bench-token-0123456789"

    let clock: SystemMonotonicClock
    let realtime: Bool
    /// The CPU the timing thread keeps to (`--realtime-cpu`); nil for any.
    let cpu: Int?
    let samples: Int
    /// Sustained triggers in all (the issue's figure is after 1,000,000).
    let sustained: Int

    struct Figures: Encodable {
        var socketTrigger: BenchReport.OverheadRow
        var webSocketTrigger: BenchReport.OverheadRow
        /// The same triggers sent through Hummingbird's WebSocket client, timed from its `send`:
        /// the client's hop to its own event loop before the frame is written is counted too.
        var webSocketTriggerThroughClientLibrary: BenchReport.OverheadRow
        var directStart: BenchReport.OverheadRow
        /// The host's floor for a socket trigger (`UnixSocketWakeUp`), with the same pauses.
        var hostWakeUp: BenchReport.OverheadRow
        var sustainedTriggers: Int
        var sustainedSeconds: Double
        var triggersPerSecond: Double
        var lost: Int
        var errors: Int
        var residentAfterFirst10kMebibytes: Double
        var residentAtEndMebibytes: Double
        /// The malloc heap in use at the same two moments: it grows with a leak; when only the
        /// resident figure grows, the allocator is keeping freed pages.
        var heapAfterFirst10kMebibytes: Double
        var heapAtEndMebibytes: Double
        var idleCPUPercent: Double
    }

    func run(progress: (String) -> Void) async throws -> Figures {
        // As `serve` does; the bench's clients share the process, and so its arenas.
        MallocHeap.limitArenas(to: MallocHeap.serviceArenaLimit, environment: ProcessInfo.processInfo.environment)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hb-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let socket = folder.appendingPathComponent("hb.sock").path
        let hardware = ZeroCostBoardHardware(wall: clock)
        let board = try Board.sim.open(on: hardware)
        let service = HapticService(board: board, scheduler: DeadlineScheduler(clock: clock, name: "hapticboard-bench-service"), library: ContentLibrary(folder: folder), limits: .unthrottled)
        try service.start(timing: realtime ? RealtimeThread(cpu: cpu) : OrdinaryTimingThread())
        defer { service.shutDown() }
        var logger = Logger(label: "hapticboard.bench.service", factory: DeferredMetadataLogHandler.standardError)
        // The listeners' own shutdown chatter is not a figure.
        logger.logLevel = .critical
        let api = ServeAPI(
            service: service, clients: ServeClients(service: service, overrideUIDs: [], tokenHoldersMayOverride: false, logger: logger),
            board: try BoardShowReport(board: board, calibrations: .init()), metrics: ServeMetrics(service: service)
        )
        let port = 30_000 + Int(getpid() % 20_000)
        let group = ServiceGroup(configuration: .init(services: [
            api.listener(at: .unixDomainSocket(path: socket), logger: logger),
            api.listener(at: .hostname("127.0.0.1", port: port), token: Self.token, logger: logger),
        ].map { .init(service: $0) }, logger: logger))
        let serving = Task { try await group.run() }
        defer { serving.cancel() }
        while !ServiceConnection.isServing(at: socket) { try await Task.sleep(for: .milliseconds(10)) }
        guard let bus = hardware.zeroCostBus else { throw CommandLineError.noActuators(board: "sim") }

        progress("bench: (a) trigger over the Unix socket → first bus write, \(samples) triggers…")
        let connection = try RawHTTPConnection(socketPath: socket)
        _ = try connection.post(Self.route)   // wakes and prepares the chip; not measured
        try clock.sleep(for: Self.settle)
        var socketTrigger = LatenessHistogram()
        for _ in 0..<samples {
            bus.arm()
            let requested = clock.now
            try connection.send(post: Self.route)
            if let wrote = bus.waitForWrite(patience: Self.patience) { socketTrigger.record(wrote - requested) }
            _ = try connection.readResponse()
            try clock.sleep(for: Self.settle)
        }

        progress("bench: the direct engine path, \(samples) starts…")
        let pattern = HapticPattern(notes: [.hapticFeedback(.impact(.rigid))])
        var direct = LatenessHistogram()
        for _ in 0..<samples {
            bus.arm()
            let requested = clock.now
            try service.engine.makePlayer(with: pattern).start(atTime: 0)
            if let wrote = bus.waitForWrite(patience: Self.patience) { direct.record(wrote - requested) }
            try clock.sleep(for: Self.settle)
        }

        progress("bench: the host's own Unix-socket wake-up, \(samples) writes…")
        let hostWakeUp = try UnixSocketWakeUp(clock: clock, samples: samples, pause: Self.settle).run()

        progress("bench: (b) WebSocket trigger → first bus write, \(samples) triggers, then as many through a client library…")
        let webSocket = try webSocketTriggers(port: port, bus: bus)
        let webSocketThroughClient = try await webSocketTriggersThroughClientLibrary(port: port, bus: bus)

        progress("bench: (c) \(sustained) triggers from \(Self.clients) clients…")
        let load = try sustainedLoad(socket: socket)
        try clock.sleep(for: .milliseconds(300))
        let end = MemoryReading.now

        progress("bench: (d) idle CPU over 2 s…")
        let cpuBefore = ProcessCPUTime.now
        try clock.sleep(for: .seconds(2))
        let idle = (ProcessCPUTime.now - cpuBefore).secondsValue / 2 * 100

        await group.triggerGracefulShutdown()
        return Figures(
            socketTrigger: Self.row("trigger over the Unix socket → first bus write", socketTrigger),
            webSocketTrigger: Self.row("WebSocket trigger → first bus write", webSocket),
            webSocketTriggerThroughClientLibrary: Self.row("  the same through Hummingbird's WebSocket client", webSocketThroughClient),
            directStart: Self.row("player.start(atTime: 0) → first bus write (direct engine path)", direct),
            hostWakeUp: Self.row("the host's own: Unix-socket write → a thread in poll(2) reads it", hostWakeUp),
            sustainedTriggers: load.sent, sustainedSeconds: load.seconds, triggersPerSecond: Double(load.sent) / load.seconds,
            lost: load.lost, errors: load.errors,
            residentAfterFirst10kMebibytes: load.after10k.resident, residentAtEndMebibytes: end.resident,
            heapAfterFirst10kMebibytes: load.after10k.heapInUse, heapAtEndMebibytes: end.heapInUse,
            idleCPUPercent: idle
        )
    }

    static let webSocketPlay = #"{"op": "play", "feedback": "impact", "style": "rigid"}"#

    /// WebSocket triggers over the loopback listener, each timed from the client's write(2) of
    /// its frame, as a socket trigger is from the write of its request.
    private func webSocketTriggers(port: Int, bus: ZeroCostBus) throws -> LatenessHistogram {
        let connection = try RawHTTPConnection(loopbackPort: port)
        try connection.upgradeToWebSocket("/ws?token=\(Self.token)")
        var histogram = LatenessHistogram()
        for index in 0...samples {
            bus.arm()
            let requested = clock.now
            try connection.send(webSocketText: Self.webSocketPlay)
            let wrote = bus.waitForWrite(patience: Self.patience)
            let answer = try connection.readWebSocketFrame()
            guard answer.contains(#""op":"started""#) else {
                throw CommandLineError.content("the service answered a WebSocket trigger with \(answer)")
            }
            // The first trigger is not measured (as over the socket).
            if index > 0, let wrote { histogram.record(wrote - requested) }
            try clock.sleep(for: Self.settle)
        }
        return histogram
    }

    private func webSocketTriggersThroughClientLibrary(port: Int, bus: ZeroCostBus) async throws -> LatenessHistogram {
        let histogram = HistogramBox()
        let clock = self.clock
        let samples = self.samples
        try await ServiceWebSocket.session("/ws?token=\(Self.token)", at: .tcp(host: "127.0.0.1", port: port)) { socket in
            for index in 0...samples {
                bus.arm()
                let requested = clock.now
                try await socket.send(Self.webSocketPlay)
                let wrote = bus.waitForWrite(patience: Self.patience)
                _ = try await socket.receive()
                // The first trigger is not measured (as over the socket).
                if index > 0, let wrote { histogram.record(wrote - requested) }
                try await Task.sleep(for: Self.settle)
            }
        }
        return histogram.value
    }

    /// Sustained triggers from `clients` threads, each on its own kept-alive connection.
    private func sustainedLoad(socket: String) throws -> (sent: Int, seconds: Double, lost: Int, errors: Int, after10k: MemoryReading) {
        let perClient = max(1, sustained / Self.clients)
        let tally = LoadTally()
        let start = clock.now
        let done = DispatchGroup()
        for _ in 0..<Self.clients {
            done.enter()
            Thread {
                defer { done.leave() }
                guard let connection = try? RawHTTPConnection(socketPath: socket) else { tally.add(lost: perClient); return }
                for _ in 0..<perClient {
                    do {
                        let status = try connection.post(Self.route)
                        tally.add(status: status)
                    } catch {
                        tally.add(lost: 1)
                    }
                }
            }.start()
        }
        done.wait()
        let (accepted, errors, lost, after10k) = tally.result
        return (accepted + errors + lost, (clock.now - start).secondsValue, lost, errors, after10k)
    }

    private static func row(_ method: String, _ histogram: LatenessHistogram) -> BenchReport.OverheadRow {
        BenchReport.OverheadRow(method: method, samples: histogram.count, p50Microseconds: BenchReport.microseconds(histogram.percentile(50)),
                                p99Microseconds: BenchReport.microseconds(histogram.percentile(99)), maxMicroseconds: BenchReport.microseconds(histogram.maximum))
    }

    static func text(_ figures: Figures) -> String {
        var lines = ["service (sim DRV2605L on a zero-cost bus, in this process):"]
        let peer = figures.directStart
        for (row, isTrigger) in [(figures.socketTrigger, true), (figures.webSocketTrigger, true), (figures.webSocketTriggerThroughClientLibrary, true), (peer, false), (figures.hostWakeUp, false)] {
            // Each trigger beside the direct path measured in the same run: the machine-independent figure.
            let ratios = !isTrigger ? "" : [("p50", row.p50Microseconds, peer.p50Microseconds), ("p99", row.p99Microseconds, peer.p99Microseconds)]
                .compactMap { name, ours, theirs in Ratio.of(ours, over: theirs, resolution: 1).map { "\(name) \($0.text)" } }
                .joined(separator: ", ")
            let beside = ratios.isEmpty ? "" : "   \(ratios) the direct path"
            lines.append(String(format: "  %@ p50 %7.1f µs   p99 %7.1f µs   max %8.1f µs   (%d)%@", row.method.padding(toLength: 66, withPad: " ", startingAt: 0), row.p50Microseconds, row.p99Microseconds, row.maxMicroseconds, row.samples, beside))
        }
        // No service answers sooner than its event loop is woken: the rest of a trigger is the service's.
        lines.append(String(format: "  of a socket trigger's p50 %.1f µs, the host's wake-up is %.1f µs: %.1f µs are the service's", figures.socketTrigger.p50Microseconds, figures.hostWakeUp.p50Microseconds, figures.socketTrigger.p50Microseconds - figures.hostWakeUp.p50Microseconds))
        lines.append(String(format: "  sustained: %d triggers from %d clients in %.1f s = %.0f triggers/s; lost %d, errors %d", figures.sustainedTriggers, clients, figures.sustainedSeconds, figures.triggersPerSecond, figures.lost, figures.errors))
        // Growth needs the reading after the first 10,000, which a shorter run (--service-triggers) never takes.
        if figures.residentAfterFirst10kMebibytes > 0 {
            lines.append(String(format: "  resident memory: %.1f MiB after the first 10,000 triggers, %.1f MiB at the end (%+.1f %%)", figures.residentAfterFirst10kMebibytes, figures.residentAtEndMebibytes, (figures.residentAtEndMebibytes / figures.residentAfterFirst10kMebibytes - 1) * 100))
            lines.append(String(format: "  malloc heap in use: %.1f MiB after the first 10,000 triggers, %.1f MiB at the end (%+.1f %%)", figures.heapAfterFirst10kMebibytes, figures.heapAtEndMebibytes, (figures.heapAtEndMebibytes / max(figures.heapAfterFirst10kMebibytes, 0.001) - 1) * 100))
        } else {
            lines.append(String(format: "  resident memory: %.1f MiB, malloc heap in use %.1f MiB at the end (no growth figure: fewer than 10,000 triggers)", figures.residentAtEndMebibytes, figures.heapAtEndMebibytes))
        }
        lines.append(String(format: "  idle CPU: %.3f %% of a core", figures.idleCPUPercent))
        return lines.joined(separator: "\n")
    }
}

/// Counts from the load threads, with the resident memory once 10,000 answers came.
private final class LoadTally: @unchecked Sendable {
    private let lock = NSLock()
    private var accepted = 0
    private var errors = 0
    private var lost = 0
    private var after10k = MemoryReading(resident: 0, heapInUse: 0)

    func add(status: Int) {
        lock.withLock {
            if (200..<300).contains(status) { accepted += 1 } else { errors += 1 }
            if accepted + errors == 10_000 { after10k = MemoryReading.now }
        }
    }

    func add(lost count: Int) { lock.withLock { lost += count } }

    var result: (Int, Int, Int, MemoryReading) { lock.withLock { (accepted, errors, lost, after10k) } }
}

private final class HistogramBox: @unchecked Sendable {
    private let lock = NSLock()
    private var histogram = LatenessHistogram()
    func record(_ duration: Duration) { lock.withLock { histogram.record(duration) } }
    var value: LatenessHistogram { lock.withLock { histogram } }
}

/// The process's memory at one moment, in MiB.
struct MemoryReading {
    /// Resident (VmRSS).
    var resident: Double
    /// The malloc heap in use, every arena (mallinfo2: small blocks and mapped ones).
    var heapInUse: Double

    static var now: MemoryReading {
        MemoryReading(resident: residentMebibytes(), heapInUse: Double(MallocHeap.bytesInUse) / 1_048_576)
    }

    private static func residentMebibytes() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
        return kilobytes / 1024
    }
}
