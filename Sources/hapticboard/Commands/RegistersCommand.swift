import ArgumentParser
import HapticRuntime

/// `hapticboard registers`: a named dump of every register of the board's chips.
struct RegistersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "registers",
        abstract: "Dump every register (0x00–0x22) of the board's DRV260x chips with names and decoded bit fields.",
        discussion: """
        Each chip is powered up and read one register at a time; register and field names are the \
        datasheet's (STATUS.DEVICE_ID, CONTROL2.SAMPLE_TIME, …). Nothing is written to the chip.
        """
    )

    @OptionGroup var options: GlobalOptions

    func run() throws {
        options.bootstrapLogging()
        let board = try CommandBoard.open(options.resolvedBoard)
        // Closed only at an orderly end, after the chips were stopped; a death leaves the guardian to it.
        defer { board.close() }
        var reports: [RegisterReport] = []
        for chip in board.opened.actuators.compactMap(\.drv2605) { reports.append(try RegisterReport.read(chip)) }
        try options.print(board: board.name, reports, text: \.text)
    }
}
