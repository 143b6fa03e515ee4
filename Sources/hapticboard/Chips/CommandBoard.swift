import ActuatorHAL
import BoardFiles
import HapticRuntime
import HardwareMocks

/// The board a command works on: `--board` opened on `CommandBoardHardware`, each chip restoring
/// the calibration stored for it.
struct CommandBoard {
    let board: Board
    let opened: OpenedBoard
    let hardware: CommandBoardHardware

    /// Opens `name` (`sim`, a board file, or the name of one in `Board.folders`). With
    /// `simulatingEveryDevice` every device is a simulated stand-in, so commands that only need
    /// the board's actuators as configured (`inspect`, `render`) never touch hardware.
    static func open(_ name: String, simulatingEveryDevice: Bool = false, calibrations: CalibrationStore.Contents = .init()) throws -> CommandBoard {
        let board = try Board.named(name)
        let hardware = CommandBoardHardware(for: board, simulatingEveryDevice: simulatingEveryDevice)
        var stored: [String: DRV2605CalibrationResult] = [:]
        for actuator in board.actuatorNames {
            stored[actuator] = calibrations.result(board: board.name, actuator: actuator)
        }
        return CommandBoard(board: board, opened: try board.open(on: hardware, calibrations: stored), hardware: hardware)
    }

    var name: String { board.name }

    /// The actuators a command works on: the one named `name`, or every one when `name` is nil.
    func actuators(named name: String?) throws(CommandLineError) -> [BoardActuator] {
        let all = opened.actuators
        let selected = name.map { wanted in all.filter { $0.name == wanted } } ?? all
        if let name, selected.isEmpty {
            throw .unknownActuator(name, board: board.name, available: all.map(\.name))
        }
        guard !selected.isEmpty else { throw .noActuators(board: board.name) }
        return selected
    }

    /// The virtual clock the board runs on when every device it opened is simulated.
    var simulatedClock: VirtualClock? {
        opened.clock is VirtualClock ? hardware.simulated.virtualClock : nil
    }

    /// The simulated board behind a chip on a `sim` bus (or its stand-in), else nil.
    func simulatedChip(of actuator: BoardActuator) -> SimulatedBoard? {
        actuator.drv2605 == nil ? nil : hardware.simulated.chips[actuator.name]
    }

    /// The devices a simulated PCM actuator opened (one per wake), else nil.
    func simulatedPCM(of actuator: BoardActuator) -> [PCMCaptureSink]? {
        let entry = board.actuators.first { $0.name == actuator.name }
        guard case .pcm(let device, _) = entry?.drive, hardware.isSimulated(device) else { return nil }
        return hardware.simulated.pcmSinks[actuator.name, default: []]
    }

    /// For a command that runs until it is stopped (`serve`, `rumble`, `buttons`): the simulated
    /// chips keep only their recent history. They log every bus transaction and drive change for
    /// the tests and `play`'s report; a service on the simulated board grew by about 3 KiB a
    /// request that way (`Scripts/soak.sh`: 44 MiB to 98 MiB in 19 minutes).
    func keepOnlyRecentSimulatedHistory() {
        hardware.simulated.historyLimit = Self.longRunHistoryLimit
    }

    /// About this many transactions and changes per simulated chip for a long run: a few seconds
    /// of a busy chip, well under a MiB.
    static let longRunHistoryLimit = 4_096

    /// The orderly end, once every actuator was stopped: the crash protection stands down.
    func close() {
        opened.close()
    }
}
