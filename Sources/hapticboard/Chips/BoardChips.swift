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
    /// An i2c-dev bus or a multiplexer on it could not be opened.
    case bus(I2CError)
    /// An enable line could not be requested.
    case enableLine(actuator: String, GPIOError)

    var description: String {
        switch self {
        case .boardNotFound(let name, let searched):
            return "no board '\(name)': not 'sim' and no file at \(searched.joined(separator: " or "))"
        case .boardFile(let error):
            return "\(error)"
        case .bus(let error):
            return "\(error)"
        case .enableLine(let actuator, let error):
            return "actuator \(actuator): cannot request its enable line: \(error)"
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
    /// configuration. A bus whose device is `sim` is a simulated board with one chip; any other
    /// bus is a Linux i2c-dev node, opened once however many chips and muxes sit on it.
    static func open(_ file: BoardFile) throws(BoardChipsError) -> BoardChips {
        if let problem = BoardRules(file: file).problems().first { throw .boardFile(problem) }
        let description = file.description
        var hardware = LinuxBoardHardware()
        var chips: [OpenedChip] = []
        var simulatedBoards: [SimulatedBoard] = []
        for (index, actuator) in description.actuators.enumerated() where actuator.compatible.hasPrefix("ti,drv260") {
            let configuration: DRV2605Configuration
            do { configuration = try file.drv2605Configuration(forActuatorAt: index) } catch { throw .boardFile(error) }
            let mux = description.muxes.first { $0.name == actuator.mux }
            guard let bus = description.buses.first(where: { $0.name == (actuator.bus ?? mux?.bus) }) else {
                throw .boardFile(file.problem(at: BoardKeyPath([.key("actuators"), .index(index)]), "the chip's bus is not defined"))
            }
            let driver: DRV2605
            if bus.device == BuiltInBoard.simName {
                let simulated = SimulatedBoard(speedHz: bus.clockFrequency)
                simulatedBoards.append(simulated)
                driver = DRV2605(bus: simulated.bus, address: SimulatedBoard.chipAddress, enableLine: simulated.enableLine, clock: simulated.clock)
            } else {
                driver = try hardware.driver(for: actuator, at: index, on: bus, behind: mux, in: file)
            }
            chips.append(OpenedChip(name: actuator.name, driver: driver, configuration: configuration))
        }
        return BoardChips(boardName: description.board, chips: chips, simulatedBoards: simulatedBoards)
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
