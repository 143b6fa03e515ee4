import ArgumentParser

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
        let board = try BoardChips.open(board: options.resolvedBoard)
        // Disarmed only at an orderly end, after the chips were stopped; a death ends it otherwise.
        defer { board.disarmCrashGuardian() }
        var reports: [RegisterReport] = []
        for chip in board.chips { reports.append(try RegisterReport.read(chip)) }
        try options.print(board: board.boardName, reports, text: \.text)
    }
}
