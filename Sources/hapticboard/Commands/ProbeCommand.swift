import ArgumentParser
import HapticRuntime

/// `hapticboard probe`: finds the board's DRV260x chips and prints what they are.
struct ProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Find the board's DRV260x haptic drivers and print bus, address, variant, DEVICE_ID and status.",
        discussion: """
        Each chip is powered up (EN high, then the datasheet's 250 µs) and its STATUS register read: \
        DEVICE_ID names the variant (3 DRV2605, 4 DRV2604, 6 DRV2604L, 7 DRV2605L); DIAG_RESULT, \
        FB_STS, OVER_TEMP and OC_DETECT are printed as flags. Nothing is written to the chip.
        """
    )

    @OptionGroup var options: GlobalOptions

    func run() throws {
        options.bootstrapLogging()
        let board = try CommandBoard.open(options.resolvedBoard)
        // Closed only at an orderly end, after the chips were stopped; a death leaves the guardian to it.
        defer { board.close() }
        var reports: [ProbeReport] = []
        for chip in board.opened.actuators.compactMap(\.drv2605) { reports.append(try ProbeReport.probe(chip)) }
        try options.print(board: board.name, reports, text: \.text)
    }
}
