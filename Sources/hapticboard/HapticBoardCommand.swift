import ArgumentParser
import Foundation

/// `hapticboard`: play haptic content on DRV2605-class and audio-driven actuators.
@main
struct HapticBoardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hapticboard",
        abstract: "Play haptic content (AHAP, .haptic, Haptic Notation, notes, sounds) on real or simulated actuators.",
        discussion: """
            Without a board file every command runs on the built-in simulated board 'sim'.

            Examples:
              hapticboard play Examples/notation/success-confirmation.hnl
              hapticboard play --notation 'loud sharp; . 0.2s; soft dull'
              hapticboard play --effect 47 --board raspberry-pi-4-drv2605l
              hapticboard inspect --program Examples/ahap/parameter-curves.ahap
              hapticboard render Examples/ahap/transients.ahap --svg transients.svg
              hapticboard convert Examples/haptic/impact-rumble.haptic --to ahap
              hapticboard calibrate --board raspberry-pi-5-drv2605l
              hapticboard --generate-completion-script bash > hapticboard.bash

            Exit status: 0 success; 1 an error (bad content, board or hardware; the message is on \
            standard error as 'hapticboard: error: …'); 2 a usage error (unknown option, missing \
            argument); 130 stopped by SIGINT (Ctrl-C) and 143 stopped by SIGTERM, in both cases \
            after the actuators were stopped and put in standby.
            """,
        version: "0.1.0",
        subcommands: [
            PlayCommand.self,
            InspectCommand.self,
            RenderCommand.self,
            ConvertCommand.self,
            CalibrateCommand.self,
            StatusCommand.self,
            ProbeCommand.self,
            RumbleCommand.self,
            ButtonsCommand.self,
            RegistersCommand.self,
            BoardsCommand.self,
            BenchCommand.self,
            ServeCommand.self,
            ClientCommand.self,
        ]
    )

    /// Parses and runs like ArgumentParser's default, except that errors a command throws are
    /// printed as `hapticboard: error: …` with status 1 (never a backtrace), usage errors exit
    /// with 2 (ArgumentParser would use 64), and a signal that stopped playback exits with 128 + signal.
    static func main() {
        var command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            exitForArgumentParser(error)
        }
        do {
            if let asyncCommand = command as? any AsyncParsableCommand {
                try run(asyncCommand)
            } else {
                try command.run()
            }
        } catch let exitCode as ExitCode {
            Foundation.exit(exitCode.rawValue)
        } catch let termination as CommandTermination {
            Foundation.exit(termination.exitStatus)
        } catch where String(reflecting: type(of: error)).hasPrefix("ArgumentParser.") {
            // A command group run without a subcommand throws ArgumentParser's internal
            // CommandError (help requested); its types are only recognisable by module.
            exitForArgumentParser(error)
        } catch {
            printError("hapticboard: error: \(error)")
            Foundation.exit(ExitCode.failure.rawValue)
        }
    }

    /// Runs an async command (`serve`) to its end from this synchronous `main`, which keeps the
    /// main thread's signal mask in force for `play`'s threads.
    private static func run(_ command: any AsyncParsableCommand) throws {
        nonisolated(unsafe) var command = command
        try ServiceConnection.blocking { try await command.run() }
    }

    /// The exit status of a usage error.
    static let usageExitStatus: Int32 = 2

    /// Help, version and completion requests as ArgumentParser handles them; usage errors with
    /// its message and usage text, but status 2.
    private static func exitForArgumentParser(_ error: any Error) -> Never {
        guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
        printError(fullMessage(for: error))
        Foundation.exit(usageExitStatus)
    }
}
