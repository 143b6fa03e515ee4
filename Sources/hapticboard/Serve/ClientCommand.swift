import ArgumentParser
import Foundation
import HapticRuntime

/// `hapticboard client`: talk to a running `hapticboard serve`.
struct ClientCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "client",
        abstract: "Ask a running service (hapticboard serve) for its status, stop its players, or follow its events.",
        subcommands: [Status.self, Stop.self, Events.self]
    )

    /// Where the service is.
    struct SocketOption: ParsableArguments {
        @Option(name: .long, help: ArgumentHelp("The service's socket (default: $HAPTICBOARD_SOCKET, else \(ServeCommand.defaultSocket)).", valueName: "path"))
        var socket: String?

        var connection: ServiceConnection { ServiceConnection(socketPath: socket ?? ServiceConnection.defaultSocketPath) }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The service's board, profile, actuators (power state, players, calibration) and players.")

        @OptionGroup var socket: SocketOption
        @Flag(name: .long, help: "Print the service's JSON.")
        var json = false

        func run() throws {
            let connection = socket.connection
            let status = try ServiceConnection.blocking { try await connection.request("GET", "/status") }
            let players = try ServiceConnection.blocking { try await connection.request("GET", "/players") }
            if json {
                print(String(decoding: status.body, as: UTF8.self))
                return
            }
            let decoded = try status.decoded(ServiceStatus.self)
            print("board \(decoded.board): \(decoded.running ? "running" : "stopped"), profile \(decoded.profile.rawValue), \(decoded.players) player(s)")
            for actuator in decoded.actuators {
                print("  \(actuator.name): \(actuator.powerState), \(actuator.players) player(s)\(actuator.calibrated ? ", calibrated" : "")")
            }
            for player in try players.decoded([ServicePlayerInfo].self) {
                print("  player \(player.id): \(player.name) on \(player.actuators.joined(separator: "+")), priority \(player.priority), client \(player.client)")
            }
            if let fault = decoded.lastFault { print("last fault: \(fault)") }
        }
    }

    struct Stop: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop one player, or every player.")

        @OptionGroup var socket: SocketOption
        @Argument(help: "The player's id (default: every player).")
        var player: Int?

        func run() throws {
            let connection = socket.connection
            let path = player.map { "/players/\($0)" } ?? "/players"
            let answer = try ServiceConnection.blocking { try await connection.request("DELETE", path) }
            guard (200..<300).contains(answer.status) else { throw answer.refusal }
            print(player.map { "stopped player \($0)" } ?? "stopped every player")
        }
    }

    struct Events: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the service's events (one JSON object per line) until stopped.")

        @OptionGroup var socket: SocketOption
        @Option(name: .long, help: "Stop after this many events.")
        var count: Int?

        func run() throws {
            let connection = socket.connection
            let limit = count
            try ServiceConnection.blocking {
                var seen = 0
                try await connection.events { line in
                    guard line != #"{"event":"subscribed"}"# else { return true }
                    // Unbuffered, so a pipe sees each event as it comes.
                    FileHandle.standardOutput.write(Data((line + "\n").utf8))
                    seen += 1
                    return limit.map { seen < $0 } ?? true
                }
            }
        }
    }
}
