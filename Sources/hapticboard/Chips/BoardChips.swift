import ActuatorHAL
import Foundation
import HardwareMocks

/// One DRV2605-class chip of a board, ready for register access.
struct OpenedChip {
    /// The actuator's name in the board description (`main`, `left`).
    var name: String
    var driver: DRV2605
    /// The configuration the board file gives the chip's actuator.
    var configuration: DRV2605Configuration

    var busName: String { driver.bus.name }
    var address: I2CAddress { driver.address }
}

/// Why a board's chips could not be opened.
enum BoardChipsError: Error, CustomStringConvertible {
    /// `--board` named neither `sim`, an existing file, nor a file in `Boards/`.
    case boardNotFound(String, searched: [String])
    /// The board file is wrong (located by file, line, column and key).
    case boardFile(BoardFileError)
    /// This build cannot open a Linux i2c-dev bus.
    case linuxBusUnavailable(board: String, device: String)

    var description: String {
        switch self {
        case .boardNotFound(let name, let searched):
            return "no board '\(name)': not 'sim' and no file at \(searched.joined(separator: " or "))"
        case .boardFile(let error):
            return "\(error)"
        case .linuxBusUnavailable(let board, let device):
            return "board \(board) uses the Linux I2C bus \(device), which is opened by the Linux implementation (LinuxI2CBus), not available in this build; use --board sim"
        }
    }
}

/// Opens the DRV2605-class chips of a board — the built-in `sim` board or a board file — for
/// commands such as `probe` and `registers`.
struct BoardChips {
    var boardName: String
    var chips: [OpenedChip]
    /// Simulated boards behind the chips, kept alive with them.
    private var simulatedBoards: [SimulatedBoard]

    /// Opens `board`: `sim`, a path to a board file, or the name of a file in `Boards/`.
    static func open(board: String) throws(BoardChipsError) -> BoardChips {
        let file: BoardFile
        if board == BuiltInBoard.simName {
            do { file = try BuiltInBoard.sim() } catch { throw .boardFile(error) }
        } else {
            let path = try resolve(board)
            do { file = try BoardFile.load(path: path) } catch { throw .boardFile(error) }
        }
        return try open(file)
    }

    /// Opens the DRV260x chips (`compatible: ti,drv260…`) a board file lists, each with its
    /// configuration. A bus whose device is `sim` is a simulated board with one chip.
    static func open(_ file: BoardFile) throws(BoardChipsError) -> BoardChips {
        let description = file.description
        var chips: [OpenedChip] = []
        var simulatedBoards: [SimulatedBoard] = []
        for (index, actuator) in description.actuators.enumerated() where actuator.compatible.hasPrefix("ti,drv260") {
            let configuration: DRV2605Configuration
            do { configuration = try file.drv2605Configuration(forActuatorAt: index) } catch { throw .boardFile(error) }
            let busName = actuator.bus ?? description.muxes.first { $0.name == actuator.mux }?.bus
            let bus = description.buses.first { $0.name == busName }
            guard bus?.device == BuiltInBoard.simName else {
                _ = try openLinuxI2CBus(device: bus?.device ?? busName ?? "(no bus)", board: description.board)
                continue
            }
            let simulated = SimulatedBoard(speedHz: bus?.clockFrequency ?? 400_000)
            simulatedBoards.append(simulated)
            let driver = DRV2605(bus: simulated.bus, address: SimulatedBoard.chipAddress, enableLine: simulated.enableLine, clock: simulated.clock)
            chips.append(OpenedChip(name: actuator.name, driver: driver, configuration: configuration))
        }
        return BoardChips(boardName: description.board, chips: chips, simulatedBoards: simulatedBoards)
    }

    /// The seam where the Linux implementation plugs in: opening `/dev/i2c-N` (and, behind it, the
    /// board's muxes and EN lines) belongs to `LinuxI2CBus`, which this build does not include.
    static func openLinuxI2CBus(device: String, board: String) throws(BoardChipsError) -> any I2CBus {
        throw .linuxBusUnavailable(board: board, device: device)
    }

    /// A path as given, else `Boards/<name>.yml` under the current directory.
    private static func resolve(_ board: String) throws(BoardChipsError) -> String {
        let candidates = [board, "Boards/\(board).yml"]
        guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            throw .boardNotFound(board, searched: candidates)
        }
        return found
    }
}
