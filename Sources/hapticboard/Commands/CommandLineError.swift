/// Mistakes a command reports as `hapticboard: error: …` with exit status 1.
enum CommandLineError: Error, CustomStringConvertible {
    /// `--actuator` named no actuator of the board.
    case unknownActuator(String, board: String, available: [String])
    /// The board has no actuator to drive.
    case noActuators(board: String)
    /// `render` picked an actuator that is not a DRV260x chip (it simulates the chip and its LRA).
    case renderNeedsChip(actuator: String, board: String)
    /// `play` got none, or more than one, of files, `--notation` and `--effect`.
    case contentSources(given: Int)
    /// `--loop` over content without events would spin without playing anything.
    case nothingToLoop
    /// `--effect` outside the ROM's ids.
    case invalidEffect(Int)
    /// `--effect` on an actuator whose chip has no ROM library (a DRV2604/DRV2604L, a PCM actuator).
    case effectNeedsROM(effect: Int, actuator: String, chip: String)
    /// `--rate` not a positive number.
    case invalidRate(Double)
    /// `--late-tolerance` that is negative or not a number.
    case invalidLateTolerance(Double)
    /// A content file did not load (the message is the reader's located error).
    case content(String)
    /// No converter for `--png` is installed.
    case noPNGConverter(tried: [String])
    /// The converter ran but failed.
    case pngConversionFailed(command: String, status: Int32, output: String)
    /// A file could not be written.
    case cannotWrite(path: String, reason: String)
    /// The calibration state file could not be read or written.
    case calibrationState(path: String, reason: String)
    /// Auto-calibration did not succeed on an actuator.
    case calibrationFailed(actuator: String, reason: String)

    var description: String {
        switch self {
        case .unknownActuator(let name, let board, let available):
            return "board '\(board)' has no actuator '\(name)'; it has \(available.joined(separator: ", "))"
        case .noActuators(let board):
            return "board '\(board)' has no actuator"
        case .renderNeedsChip(let actuator, let board):
            return "render simulates a DRV260x chip; actuator '\(actuator)' of board '\(board)' is a pcm-actuator (see its drive with 'inspect --program')"
        case .contentSources(let given):
            return given == 0
                ? "nothing to play: give content files, --notation 'TEXT' or --effect N"
                : "give content files, --notation or --effect, not several of them"
        case .nothingToLoop:
            return "--loop: the content has no events to play"
        case .invalidEffect(let id):
            return "--effect \(id): DRV2605 ROM effect ids are 1–123"
        case .effectNeedsROM(let effect, let actuator, let chip):
            return "--effect \(effect): actuator \(actuator) is a \(chip), which has no ROM effect library (ROM effects need a DRV2605 or DRV2605L)"
        case .invalidRate(let rate):
            return "--rate \(rate): expected a positive playback rate such as 0.5, 1 or 2"
        case .invalidLateTolerance(let milliseconds):
            return "--late-tolerance \(milliseconds): expected a number of milliseconds, 0 or more"
        case .content(let message):
            return message
        case .noPNGConverter(let tried):
            return "--png needs \(tried.joined(separator: " or ")) on the PATH (Debian: apt install librsvg2-bin); the SVG was written"
        case .pngConversionFailed(let command, let status, let output):
            return "\(command) failed with status \(status): \(output)"
        case .cannotWrite(let path, let reason):
            return "\(path): cannot write: \(reason)"
        case .calibrationState(let path, let reason):
            return "\(path): calibration state: \(reason)"
        case .calibrationFailed(let actuator, let reason):
            return "actuator \(actuator): auto-calibration failed: \(reason)"
        }
    }
}
