import ArgumentParser

/// `hapticboard`: play haptic content on DRV2605-class and audio-driven actuators.
@main
struct HapticBoardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hapticboard",
        abstract: "Play haptic content (AHAP, Haptic Notation, notes) on real or simulated actuators.",
        version: "0.1.0",
        subcommands: [
            ProbeCommand.self,
            RegistersCommand.self,
            BoardsCommand.self,
            BenchCommand.self,
        ]
    )
}
