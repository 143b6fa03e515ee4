import ArgumentParser
import Foundation

/// Options every board command shares.
struct BoardOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The board: 'sim' (built in: one DRV2605L with a 175 Hz, 2.0 V rms LRA), a board file, or the name of a file in Boards/.",
        valueName: "name|file"
    ))
    var board: String = BuiltInBoard.simName

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    /// Prints `reports` under the board's name, as JSON or as text lines.
    func print<Report: Encodable>(board: String, _ reports: [Report], text: (Report) -> String) throws {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let data = try encoder.encode(ChipsDocument(board: board, chips: reports))
            Swift.print(String(decoding: data, as: UTF8.self))
        } else {
            for report in reports { Swift.print(text(report)) }
        }
    }
}

/// The JSON document of a board command: the board's name and one entry per chip.
struct ChipsDocument<Chip: Encodable>: Encodable {
    var board: String
    var chips: [Chip]
}
