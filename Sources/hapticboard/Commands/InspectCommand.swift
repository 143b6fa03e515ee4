import ActuatorHAL
import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HapticRuntime

/// `hapticboard inspect FILE...`: what a content file holds, and what the board's actuator would play.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Summarise content files: format, events by type, curves, dynamic parameters, duration, warnings; for .haptic clips and sounds their envelopes.",
        discussion: """
            Reads AHAP (.ahap, .json), .haptic clips, Haptic Notation (.hnl, .haptic-notation), \
            note lists (.notes, .txt, a JSON array) and sounds (.wav, .flac, .ogg, .aiff: the \
            haptics derived from them); - reads standard input. For a .haptic clip (or a sound) \
            it adds the duration (last amplitude breakpoint), breakpoint and emphasis counts and \
            the envelopes' range, mean and peak. A missing AudioCustom waveform file is a \
            warning (an error with --strict). With --program, also prints the ActuatorProgram compiled \
            for the board's actuator (on sim from the woken simulated chip; on other boards from \
            the board file, without touching hardware). Exits 1 if any file has an error, which \
            is printed with its file:line:column.

            Examples:
              hapticboard inspect Examples/ahap/*.ahap
              hapticboard inspect --program --json Examples/notation/success-confirmation.hnl
            """
    )

    @OptionGroup var options: GlobalOptions

    @Flag(name: .long, help: "Also print the compiled program for the board's actuator.")
    var program = false

    @Option(name: .long, help: "The actuator to compile for (default: the board's first).")
    var actuator: String?

    @Flag(name: .long, help: "Treat a missing or refused AudioCustom waveform file as an error.")
    var strict = false

    @Argument(help: "Content files (- for standard input).")
    var files: [String]

    func run() throws {
        options.bootstrapLogging()
        // The program is what the engine would compile for the actuator, simulated as configured.
        var target: (name: String, engine: HapticEngine)?
        if program {
            let board = try CommandBoard.open(options.resolvedBoard, simulatingEveryDevice: true)
            let chosen = try board.actuators(named: actuator)[0]
            target = (chosen.name, board.opened.makeEngine(for: [chosen]))
        }
        var summaries: [ContentSummary] = []
        var failed = false
        for file in files {
            do {
                var reader = CommandContent()
                let content = try reader.load(file, warn: { _ in }).content
                if strict { try content.requirePlayableWaveforms() }
                let listing = try target.map { ProgramListing(actuator: $0.name, program: try $0.engine.program(for: content.pattern, on: $0.name)) }
                summaries.append(ContentSummary(file: file, content: content, program: listing))
            } catch {
                failed = true
                printError("hapticboard: error: \(error)")
            }
        }
        if options.json {
            try printJSON(InspectDocument(files: summaries))
        } else if !summaries.isEmpty {
            print(summaries.map(\.text).joined(separator: "\n"))
        }
        if failed { throw ExitCode.failure }
    }
}

/// `inspect --json`: one summary per file that loaded.
struct InspectDocument: Encodable {
    var files: [ContentSummary]
}
