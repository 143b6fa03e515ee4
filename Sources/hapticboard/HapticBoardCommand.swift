import ArgumentParser
import Foundation

/// `hapticboard`: play haptic content on DRV2605-class and audio-driven actuators.
@main
struct HapticBoardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hapticboard",
        abstract: "Play haptic content (AHAP, Haptic Notation, notes) on real or simulated actuators.",
        discussion: """
            Without a board file every command runs on the built-in simulated board 'sim'.

            Examples:
              hapticboard play Examples/notation/success-confirmation.hnl
              hapticboard play --notation 'loud sharp . 0.2s soft dull'
              hapticboard play --effect 47 --board raspberry-pi-4-drv2605l
              hapticboard inspect --program Examples/ahap/parameter-curves.ahap
              hapticboard render Examples/ahap/transients.ahap --svg transients.svg
              hapticboard calibrate --board raspberry-pi-5-drv2605l
              hapticboard --generate-completion-script bash > /etc/bash_completion.d/hapticboard

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
            CalibrateCommand.self,
            StatusCommand.self,
            ProbeCommand.self,
            RegistersCommand.self,
            BoardsCommand.self,
        ]
    )

    /// Parses and runs like ArgumentParser's default, except that errors a command throws are
    /// printed as `hapticboard: error: …` with status 1 (never a backtrace); usage errors keep
    /// ArgumentParser's message and status 2.
    static func main() {
        var command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            exit(withError: error)
        }
        do {
            try command.run()
        } catch let exitCode as ExitCode {
            Foundation.exit(exitCode.rawValue)
        } catch let error as CommandTermination {
            Foundation.exit(error.exitStatus)
        } catch let error where error is ValidationError || error is CleanExit {
            exit(withError: error)
        } catch {
            printError("hapticboard: error: \(error)")
            Foundation.exit(ExitCode.failure.rawValue)
        }
    }
}
