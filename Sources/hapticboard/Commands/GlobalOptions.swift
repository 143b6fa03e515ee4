import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HapticRuntime
import Logging

/// Options every command shares: which board, JSON output, verbose logging.
struct GlobalOptions: ParsableArguments {
    /// Where the board comes from when `--board` is not given, in order.
    static let environmentVariable = "HAPTICBOARD_BOARD"
    static let systemBoardFile = "/etc/hapticboard/board.yml"

    @Option(name: .long, help: ArgumentHelp(
        "The board: 'sim' (built in: one DRV2605L with a 175 Hz, 2.0 V rms LRA), a board file, or the name of a file in Boards/ or /etc/hapticboard/. Default: $HAPTICBOARD_BOARD, else /etc/hapticboard/board.yml if it exists, else sim.",
        valueName: "name|file"
    ))
    var board: String?

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    @Flag(name: [.short, .long], help: "Log what the command does to standard error.")
    var verbose = false

    /// The board to open: `--board`, else `$HAPTICBOARD_BOARD`, else the system board file, else `sim`.
    var resolvedBoard: String {
        Self.defaultBoard(option: board, environment: ProcessInfo.processInfo.environment, fileExists: FileManager.default.fileExists(atPath:))
    }

    /// The default-board rule, with its inputs passed in so it can be tested.
    static func defaultBoard(option: String?, environment: [String: String], fileExists: (String) -> Bool) -> String {
        if let option, !option.isEmpty { return option }
        if let named = environment[environmentVariable], !named.isEmpty { return named }
        if fileExists(systemBoardFile) { return systemBoardFile }
        return Board.simName
    }

    /// Sends swift-log output to standard error: debug with `-v`, warnings otherwise. Commands call
    /// this first; swift-log allows one bootstrap per process, which one command run is.
    func bootstrapLogging() {
        let level: Logger.Level = verbose ? .debug : .warning
        LoggingSystem.bootstrap { label in
            var handler = DeferredMetadataLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }

    /// A logger for the command `name`.
    func logger(_ name: String) -> Logger {
        Logger(label: "hapticboard.\(name)")
    }

    /// Prints `reports` under the board's name, as JSON or as text lines.
    func print<Report: Encodable>(board: String, _ reports: [Report], text: (Report) -> String) throws {
        if json {
            try printJSON(ChipsDocument(board: board, chips: reports))
        } else {
            for report in reports { Swift.print(text(report)) }
        }
    }
}

/// Writes `value` as pretty, key-sorted JSON to standard output.
func printJSON<Value: Encodable>(_ value: Value) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let data = try encoder.encode(value)
    print(String(decoding: data, as: UTF8.self))
}

/// The JSON document of a board command: the board's name and one entry per chip.
struct ChipsDocument<Chip: Encodable>: Encodable {
    var board: String
    var chips: [Chip]
}
