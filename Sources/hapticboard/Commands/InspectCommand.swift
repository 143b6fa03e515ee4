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
        abstract: "Summarise content files: format, events by type, curves, dynamic parameters, duration, warnings.",
        discussion: """
            Reads AHAP (.ahap, .json), Haptic Notation (.hnl, .haptic-notation) and note lists \
            (.notes, .txt, a JSON array). With --program, also prints the ActuatorProgram compiled \
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

    @Argument(help: "Content files.")
    var files: [String]

    func run() throws {
        options.bootstrapLogging()
        var target: (actuator: BoardActuator, capabilities: ActuatorCapabilities)?
        if program {
            let board = try BoardChips.open(board: options.resolvedBoard, simulatingEveryBus: true)
            let chosen = try board.actuator(named: actuator)
            target = (chosen, try chosen.compilationCapabilities())
        }
        var summaries: [ContentSummary] = []
        var failed = false
        for file in files {
            do {
                let content = try ContentLoader.load(contentsOf: URL(fileURLWithPath: file))
                let listing = target.map { ProgramListing(actuator: $0.actuator.name, program: $0.actuator.compile(content.pattern, capabilities: $0.capabilities)) }
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
