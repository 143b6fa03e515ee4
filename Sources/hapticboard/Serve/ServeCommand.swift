import ActuatorHAL
import ActuatorHALLinux
import ArgumentParser
import Foundation
import HapticRuntime
import HardwareMocks
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import ServiceLifecycle

/// `hapticboard serve`: one long-running owner of the board with a local HTTP/WebSocket API.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Own the board and serve a local HTTP + WebSocket API for kiosk apps and games.",
        discussion: """
            Opens the board once, puts every actuator in standby (whatever a previous process left \
            behind is stopped first) and keeps the engine warm. The API is HTTP/1.1 + JSON on a \
            Unix socket, so `curl --unix-socket` works; --listen adds a loopback TCP listener for \
            browser kiosks that needs a bearer token. GET /openapi.json describes every route \
            (docs/service.md is the guide).

            SIGTERM or SIGINT: stop every player, leave every actuator in standby, exit 0. SIGHUP: \
            reload the content library and the theme. Under systemd (Type=notify) readiness and \
            watchdog pings go to $NOTIFY_SOCKET.

            Examples:
              hapticboard serve --socket /tmp/hb.sock --library Examples/ahap
              curl --unix-socket /tmp/hb.sock -X POST 'http://localhost/feedback/impact/rigid?wait=true'
              curl --unix-socket /tmp/hb.sock -X POST --data 'loud sharp' 'http://localhost/play/notation?wait=true'
            """
    )

    /// The socket `serve` listens on and the other commands look for.
    static let defaultSocket = "/run/hapticboard/hapticboard.sock"
    static let socketEnvironmentVariable = "HAPTICBOARD_SOCKET"

    @OptionGroup var options: GlobalOptions
    @OptionGroup var state: StateOptions
    @OptionGroup var realtime: RealtimeOptions

    @Option(name: .long, help: ArgumentHelp("The Unix socket to serve on (default: $HAPTICBOARD_SOCKET, else \(defaultSocket)).", valueName: "path"))
    var socket: String?

    @Option(name: .long, help: ArgumentHelp("The socket's permissions, in octal.", valueName: "mode"))
    var socketMode = "660"

    @Option(name: .long, help: ArgumentHelp("Also listen on TCP at host:port (loopback unless --allow-remote), requiring --token-file's token.", valueName: "host:port"))
    var listen: String?

    @Option(name: .long, help: ArgumentHelp("A file holding the bearer token TCP clients must send.", valueName: "file"))
    var tokenFile: String?

    @Flag(name: .long, help: "Let --listen bind an address that is not loopback.")
    var allowRemote = false

    @Option(name: .long, help: ArgumentHelp("A web origin whose pages may call --listen from a browser (CORS), such as http://localhost:8080 or null for a page opened from a file; repeatable, * for any page. They still need the token.", valueName: "origin"))
    var allowOrigin: [String] = []

    @Option(name: .long, help: ArgumentHelp("A folder of content played by name (POST /play/library/NAME); also the only folder submitted AHAP may take sound files from.", valueName: "dir"))
    var library: String?

    @Option(name: .long, help: ArgumentHelp("A feedback theme in feedbackd's format mapping named events to feedback per profile.", valueName: "file"))
    var theme: String?

    @Option(name: .long, help: "The feedback profile to start with: full, quiet or silent.")
    var profile = "full"

    @Option(name: .long, help: ArgumentHelp("A user whose clients may play events louder than the profile (repeatable; root always may).", valueName: "uid"))
    var overrideUID: [UInt32] = []

    @Option(name: .long, help: "Players that may mix on one actuator.")
    var maxPlayersPerActuator = 8

    @Option(name: .long, help: ArgumentHelp("The longest content played, in milliseconds.", valueName: "ms"))
    var maxDurationMs = 30_000

    @Option(name: .long, help: "The most events one request may hold.")
    var maxEvents = 10_000

    @Option(name: .long, help: "Triggers a client may send per second (twice that at once).")
    var maxTriggersPerSecond = 1_000.0

    @Flag(name: .long, help: "Open no sound output: audio events are left out.")
    var noAudio = false

    @Option(name: .long, help: ArgumentHelp("How late a transient may be before it is dropped rather than played late, in milliseconds; raise it on slow or emulated machines.", valueName: "ms"))
    var lateTolerance: Double = 3

    @Flag(name: .long, help: "Also be a Linux force-feedback device (uinput, as `hapticboard rumble`), identified as the board's force-feedback: section says, so games can drive the actuators.")
    var forceFeedback = false

    func run() async throws {
        options.bootstrapLogging()
        var logger = options.logger("serve")
        if !options.verbose { logger.logLevel = .notice }
        // Before the listeners and the timing thread start: fewer arenas keep a service's resident
        // memory flat over millions of requests (MallocHeap.serviceArenaLimit).
        let arenas = MallocHeap.limitArenas(to: MallocHeap.serviceArenaLimit, environment: ProcessInfo.processInfo.environment)
        logger.info("malloc arenas: \(arenas)")
        guard lateTolerance.isFinite, lateTolerance >= 0 else { throw CommandLineError.invalidLateTolerance(lateTolerance) }
        guard let startProfile = FeedbackProfile(rawValue: profile) else { throw CommandLineError.content("--profile '\(profile)': expected full, quiet or silent") }
        let socketPath = socket ?? ProcessInfo.processInfo.environment[Self.socketEnvironmentVariable] ?? Self.defaultSocket
        let tcp = try listen.map { try TCPListener(parsing: $0, allowRemote: allowRemote, tokenFile: tokenFile, allowedOrigins: allowOrigin) }
        guard tcp != nil || allowOrigin.isEmpty else { throw CommandLineError.content("--allow-origin needs --listen: browsers reach the service only over TCP") }
        let sounds = SoundReading.linux(settings: SoundAnalysisSettings())
        let contentLibrary = try loadLibrary(sounds: sounds)
        let feedbackTheme = try loadTheme()

        let board = try CommandBoard.open(options.resolvedBoard, calibrations: try state.store.load())
        board.keepOnlyRecentSimulatedHistory()
        // On a simulated board the virtual clock runs at wall-clock pace, as `play` runs it.
        let clock: any MonotonicClock = board.simulatedClock.map { PacedClock(pacing: $0, by: SystemMonotonicClock()) } ?? board.opened.clock
        let sound = noAudio ? nil : try board.opened.openSoundOutput(soundsIn: contentLibrary.folder, clock: clock)
        let service = HapticService(
            board: board.opened, scheduler: DeadlineScheduler(clock: clock, latePolicy: LatePolicy(transientTolerance: .microseconds(Int64((lateTolerance * 1000).rounded())))), library: contentLibrary, theme: feedbackTheme,
            sound: sound, limits: limits
        )
        service.profile = startProfile
        // From here on, whatever fails leaves every actuator stopped and in standby, and the board closed.
        do {
            try service.start(timing: realtime.timing)
            logger.notice("board \(board.name) ready: every actuator in standby")

            // Force feedback drives the service's engine directly: games' effects mix with the API's players.
            let provider = forceFeedback ? try startForceFeedback(on: board, engine: service.engine, logger: logger) : nil
            // The board's buttons and encoders play their bindings as one more client; their
            // events go on the event stream, and with --force-feedback on its device as keys.
            let inputs = board.board.inputs.isEmpty ? nil : try BoardInputs(board.board.inputs, hardware: board.opened.hardware, service: service, forceFeedback: provider)
            inputs?.decoder.warningHandler = { [logger] in logger.warning("\($0)") }
            for reader in inputs?.readers ?? [] {
                reader.failureHandler = { [logger] role, error in logger.error("input \(role.input) stopped: \(error)") }
            }
            inputs?.keyReader?.failureHandler = { [logger] error in logger.error("input keys stopped: \(error)") }
            try inputs?.start(threadSetup: realtime.inputReader)
            defer { inputs?.stop() }
            let clients = ServeClients(service: service, overrideUIDs: Set(overrideUID), tokenHoldersMayOverride: false, logger: logger)
            let api = ServeAPI(service: service, clients: clients, board: try BoardShowReport(board: board.opened, calibrations: try state.store.load()), metrics: ServeMetrics(service: service))
            let notifier = SystemdNotifier()
            let announcement = "serving board \(board.name) on \(socketPath)\(tcp.map { " and \($0.host):\($0.port)" } ?? "")"
            let log = logger
            let readiness = Readiness(listeners: tcp == nil ? 1 : 2) {
                notifier.ready(status: announcement)
                log.notice("\(announcement)")
            }
            let socketFile = try UnixSocketFile(path: socketPath, mode: socketMode)
            var services: [any Service] = [
                api.listener(
                    at: .unixDomainSocket(path: socketPath),
                    onServerRunning: { _ in
                        socketFile.applyMode()
                        readiness.listenerReady()
                    },
                    logger: logger
                ),
            ]
            if let tcp {
                services.append(api.listener(
                    at: .hostname(tcp.host, port: tcp.port), token: tcp.token, allowedOrigins: tcp.allowedOrigins,
                    onServerRunning: { _ in readiness.listenerReady() }, logger: logger
                ))
            }
            if let interval = notifier.watchdogInterval { services.append(WatchdogPinger(notifier: notifier, interval: interval)) }
            // Last, so it is the first to shut down: players stop and the actuators go to standby
            // before the listeners drain.
            services.append(HardwareOwner(service: service, forceFeedback: provider, notifier: notifier, logger: logger))
            let reloader = Reloader(service: service, notifier: notifier, logger: logger) {
                (try self.loadLibrary(sounds: sounds), try self.loadTheme())
            }
            defer {
                reloader.cancel()
                socketFile.remove()
            }
            let group = ServiceGroup(configuration: .init(services: services.map { .init(service: $0) }, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
            try await group.run()
        } catch {
            service.shutDown()
            throw error
        }
    }

    private func startForceFeedback(on board: CommandBoard, engine: HapticEngine, logger: Logger) throws -> ForceFeedbackProvider {
        let device = try board.opened.hardware.createForceFeedbackDevice(board.board.forceFeedbackSetup)
        let provider = try ForceFeedbackProvider(device: device, engine: engine, layout: board.board.forceFeedbackLayout)
        provider.endedHandler = { ending in logger.error("force feedback ended: \(ending)") }
        do {
            try provider.start(threadSetup: realtime.inputReader)
        } catch {
            provider.stop() // removes the device it created
            throw error
        }
        logger.notice("force feedback: \(device.clientPath ?? "a uinput device") '\(device.setup.name)'")
        return provider
    }

    private var limits: HapticService.Limits {
        var limits = HapticService.Limits()
        limits.playersPerActuator = maxPlayersPerActuator
        limits.maximumDuration = .milliseconds(maxDurationMs)
        limits.maximumEvents = maxEvents
        limits.triggersPerSecond = maxTriggersPerSecond
        // At least one trigger at once, however low the rate.
        limits.triggerBurst = max(1, maxTriggersPerSecond * 2)
        return limits
    }

    private func loadLibrary(sounds: SoundReading) throws -> ContentLibrary {
        guard let library else { return ContentLibrary(folder: URL(fileURLWithPath: "/nonexistent/hapticboard-library")) }
        return try ContentLibrary.load(folder: URL(fileURLWithPath: library, isDirectory: true), sounds: sounds)
    }

    private func loadTheme() throws -> FeedbackTheme? {
        try theme.map { try FeedbackTheme.load(contentsOf: URL(fileURLWithPath: $0)) }
    }
}

/// `--listen host:port`, its token and the web origins whose pages may call it.
struct TCPListener {
    var host: String
    var port: Int
    var token: String
    var allowedOrigins: Set<String>

    init(parsing text: String, allowRemote: Bool, tokenFile: String?, allowedOrigins: [String] = []) throws {
        for origin in allowedOrigins where !Self.isOrigin(origin) {
            throw CommandLineError.content("--allow-origin '\(origin)': expected scheme://host[:port] (no path), null or *")
        }
        self.allowedOrigins = Set(allowedOrigins)
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (1...65_535).contains(port) else {
            throw CommandLineError.content("--listen '\(text)': expected host:port, such as 127.0.0.1:7777")
        }
        host = String(text[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        self.port = port
        guard allowRemote || ["127.0.0.1", "::1", "localhost"].contains(host) else {
            throw CommandLineError.content("--listen \(host): not a loopback address; the API drives hardware, so binding beyond this machine needs --allow-remote")
        }
        guard let tokenFile else { throw CommandLineError.content("--listen needs --token-file: TCP clients must send its token") }
        let read: String
        do { read = try String(contentsOfFile: tokenFile, encoding: .utf8) } catch {
            throw CommandLineError.content("--token-file \(tokenFile): \(error.localizedDescription)")
        }
        token = read.trimmingCharacters(in: .whitespacesAndNewlines)
        guard token.count >= 16 else { throw CommandLineError.content("--token-file \(tokenFile): the token must be at least 16 characters") }
    }

    /// What a browser sends as `Origin`: `scheme://host[:port]` without a path, or `null`; `*`
    /// stands for any.
    static func isOrigin(_ text: String) -> Bool {
        if text == "*" || text == "null" { return true }
        guard let separator = text.range(of: "://"), !text[..<separator.lowerBound].isEmpty else { return false }
        let authority = text[separator.upperBound...]
        return !authority.isEmpty && !authority.contains("/") && !authority.contains(where: \.isWhitespace)
    }
}

/// The socket file: a stale one (no server behind it) is removed before binding, a live one is
/// refused; the mode is applied once bound; the file is removed at the end.
final class UnixSocketFile: Sendable {
    let path: String
    private let mode: mode_t

    init(path: String, mode text: String) throws {
        guard let mode = mode_t(text, radix: 8), mode <= 0o777 else { throw CommandLineError.content("--socket-mode '\(text)': expected octal permissions such as 660") }
        self.path = path
        self.mode = mode
        guard FileManager.default.fileExists(atPath: path) else { return }
        if ServiceConnection.isServing(at: path) {
            throw CommandLineError.content("\(path): a service is already serving there (hapticboard client status)")
        }
        try? FileManager.default.removeItem(atPath: path)
    }

    func applyMode() {
        chmod(path, mode)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// Calls `ready` once every listener is up.
final class Readiness: @unchecked Sendable {
    private let lock = NSLock()
    private var waiting: Int
    private let ready: @Sendable () -> Void

    init(listeners: Int, ready: @escaping @Sendable () -> Void) {
        waiting = listeners
        self.ready = ready
    }

    func listenerReady() {
        let done = lock.withLock { () -> Bool in
            waiting -= 1
            return waiting == 0
        }
        if done { ready() }
    }
}

/// The hardware as a lifecycle service: it runs until the graceful shutdown (SIGTERM, SIGINT),
/// then stops every player and leaves every actuator in standby before the listeners drain.
struct HardwareOwner: Service, CustomStringConvertible {
    let service: HapticService
    /// The uinput force-feedback device, when serving one: removed first, so no game starts an
    /// effect while the actuators stop.
    let forceFeedback: ForceFeedbackProvider?
    let notifier: SystemdNotifier
    let logger: Logger

    var description: String { "hapticboard hardware" }

    func run() async throws {
        try? await gracefulShutdown()
        notifier.stopping()
        forceFeedback?.stop()
        service.shutDown()
        logger.notice("every actuator stopped and in standby")
    }
}

/// `WATCHDOG=1` at half systemd's `WatchdogSec`.
struct WatchdogPinger: Service, CustomStringConvertible {
    let notifier: SystemdNotifier
    let interval: Duration

    var description: String { "systemd watchdog" }

    func run() async throws {
        try await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                notifier.watchdog()
                try await Task.sleep(for: interval)
            }
        }
    }
}

/// SIGHUP: reload the content library and the theme; a library or theme that does not load is
/// logged and the old one kept.
final class Reloader: @unchecked Sendable {
    private let source: any DispatchSourceSignal

    init(service: HapticService, notifier: SystemdNotifier, logger: Logger, load: @escaping @Sendable () throws -> (ContentLibrary, FeedbackTheme?)) {
        signal(SIGHUP, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGHUP)
        source.setEventHandler {
            notifier.reloading()
            do {
                let (library, theme) = try load()
                service.reload(library: library, theme: theme)
                logger.notice("reloaded: \(library.names.count) library item(s), theme \(theme?.name ?? "none")")
            } catch {
                logger.error("reload failed, keeping what was loaded: \(error)")
            }
            notifier.ready(status: "reloaded")
        }
        source.resume()
    }

    func cancel() {
        source.cancel()
    }
}
