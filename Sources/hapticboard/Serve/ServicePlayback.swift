import ActuatorHALLinux
import BoardFiles
import Foundation
import HapticRuntime

/// `hapticboard play` through a running service, which owns the hardware: each item is sent
/// with `wait=true` and the summary printed from the service's report, in `play`'s format.
struct ServicePlayback {
    let connection: ServiceConnection
    let options: GlobalOptions
    /// The service's board.
    let board: String

    /// The service at `socketPath`, when one is serving there and owns the board asked for;
    /// nil when none is running.
    init?(options: GlobalOptions, socketPath: String) throws {
        guard FileManager.default.fileExists(atPath: socketPath), ServiceConnection.isServing(at: socketPath) else { return nil }
        let connection = ServiceConnection(socketPath: socketPath)
        let status = try ServiceConnection.blocking { try await connection.request("GET", "/status") }.decoded(ServiceStatus.self)
        if let asked = options.board, asked != status.board, asked != Board.simName || status.board != Board.simName {
            let named = (try? Board.named(asked))?.name
            guard named == status.board else {
                throw CommandLineError.content("the service at \(socketPath) owns board \(status.board), not \(asked): play there without --board, or stop it and use --no-service")
            }
        }
        self.connection = connection
        self.options = options
        board = status.board
    }

    /// Plays every item in order, waiting for each; prints `play`'s summary.
    func play(_ content: PlayContent, actuator: String?, loop: Bool, rate: Double, noAudio: Bool, effect: Int?, quiet: Bool) throws {
        guard !loop, rate == 1 else {
            throw CommandLineError.content("--loop and --rate play only with the board opened directly: add --no-service (the service at \(connection.socketPath) owns it now, so stop it first)")
        }
        // Ctrl-C or SIGTERM: this process ends with 128 + the signal, and with it the connection,
        // so the service stops the player it was playing for it (as `play` stops its own).
        let termination = TerminationGuard.install(stop: {})
        defer { termination.uninstall() }
        var reports: [PlaybackReport] = []
        for item in content.items {
            let (path, body) = Self.request(for: item, effect: effect, noAudio: noAudio)
            var query = "?wait=true"
            if let actuator { query += "&actuator=\(actuator)" }
            let request = path + query
            let answer = try ServiceConnection.blocking { try await connection.request("POST", request, body: body) }
            guard (200..<300).contains(answer.status) else { throw answer.refusal }
            let response = try JSONDecoder().decode(PlayedResponse.self, from: answer.body)
            if !quiet { for warning in response.warnings { printError(warning) } }
            if var report = response.report {
                report.content = [item.name]
                report.events = item.content.pattern.events.count
                reports.append(report)
            }
        }
        guard var total = reports.first else { return }
        for report in reports.dropFirst() {
            total.content += report.content
            total.events += report.events
            total.commands += report.commands
            total.late += report.late
            total.dropped += report.dropped
            total.elapsedSeconds += report.elapsedSeconds
            total.maximumLatenessMicroseconds = max(total.maximumLatenessMicroseconds, report.maximumLatenessMicroseconds)
            total.p99LatenessMicroseconds = max(total.p99LatenessMicroseconds, report.p99LatenessMicroseconds)
            total.transitions += report.transitions
        }
        total.transitions = TransitionTally.merged(total.transitions)
        let summary = PlaySummary(board: board, report: total)
        if options.json { try printJSON(summary) } else { print(summary.text) }
    }

    /// The route and body for an item: notation and notes as written, an effect by id,
    /// everything else as AHAP (its sounds stay behind: the service plays files of its library only).
    private static func request(for item: PlayContent.Item, effect: Int?, noAudio: Bool) -> (String, String?) {
        if let effect { return ("/play/effect/\(effect)", nil) }
        var pattern = item.content.pattern
        if noAudio { pattern.events.removeAll { !$0.type.isHaptic } }
        return ("/play/ahap", AHAP.write(pattern))
    }

    /// The answer to a waited-for play.
    private struct PlayedResponse: Decodable {
        var warnings: [String]
        var ended: PlayerEndReason?
        var report: PlaybackReport?
    }
}
