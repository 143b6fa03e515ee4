import ActuatorHAL
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HapticRuntime
import HardwareMocks

/// One DRV2605-class chip of a board, ready for register access.
struct OpenedChip {
    /// The actuator's name in the board description (`main`, `left`).
    var name: String
    var driver: DRV2605
    /// The configuration the board file gives the chip's actuator.
    var configuration: DRV2605Configuration
    /// The chip the board file names (`ti,drv2605l`).
    var variant: DRV2605Variant
    /// The board file's `max-continuous-drive-ms`.
    var maximumContinuousDrive: Duration?
    /// The board file's `status-poll-ms` (nil when 0: no STATUS reads while playing).
    var statusPollInterval: Duration?
    /// The simulated board behind the chip, when the bus is `sim`: its clock, chip model and drive.
    var simulation: SimulatedBoard?
    /// Whether `simulation` stands in for real hardware the board file describes.
    var isStandIn: Bool

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
    /// The crash handler that stops a chip if the process dies could not be armed.
    case emergencyStop(actuator: String, EmergencyStopError)
    /// The writes that stop a chip after a crash could not be worked out.
    case chipStop(actuator: String, ChipStopError)
    /// The guardian process that stops the chips if this one dies could not be started.
    case crashGuardian(CrashGuardianError)

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
        case .emergencyStop(let actuator, let error):
            return "actuator \(actuator): cannot arm the crash stop: \(error)"
        case .chipStop(let actuator, let error):
            return "actuator \(actuator): \(error)"
        case .crashGuardian(let error):
            return "\(error)"
        }
    }
}

/// Opens the actuators of a board — the built-in `sim` board or a board file: its DRV2605-class
/// chips (for every command, `probe` and `registers` included) and its PCM-driven actuators (for
/// the commands that drive actuators through the engine: `play`, `status`, `inspect`).
struct BoardChips {
    var boardName: String
    var chips: [OpenedChip]
    /// The board's PCM-driven actuators (`compatible: pcm-actuator`).
    var pcmActuators: [OpenedPCMActuator]
    /// The board file the chips were opened from (its `audio:` output, its PCM actuators).
    var file: BoardFile
    /// The board file's power timeouts, if it gives any.
    var power: PowerDescription?
    /// The process that stops the real chips if this one dies; nil on a board without real chips.
    /// A command disarms it with `disarmCrashGuardian()` once it has stopped the chips.
    var crashGuardian: CrashGuardian?

    /// Opens `board`: `sim`, a path to a board file, or the name of a file in `Boards/` or
    /// `/etc/hapticboard/`. With `simulatingEveryBus` every bus is a simulated stand-in at the
    /// board's speed, so commands that only need the board's actuators as configured (`inspect`,
    /// `render`) never touch hardware.
    static func open(board: String, simulatingEveryBus: Bool = false) throws(BoardChipsError) -> BoardChips {
        let file: BoardFile
        if board == BuiltInBoard.simName {
            do { file = try BuiltInBoard.sim() } catch { throw .boardFile(error) }
        } else {
            let path = try BoardCatalog.path(of: board)
            do { file = try BoardFile.load(path: path) } catch { throw .boardFile(error) }
        }
        return try open(file, simulatingEveryBus: simulatingEveryBus)
    }

    /// Opens the PCM actuators a board file lists: on their ALSA devices (opened at wake), or on a
    /// simulated device when the device is `sim` or `simulatingEveryDevice`. Simulated devices run
    /// on `simulatedClock` (the simulated chips' clock, so one engine clock serves every actuator)
    /// or, on a board without simulated chips, on one new virtual clock.
    private static func openPCMActuators(
        of file: BoardFile, simulatingEveryDevice: Bool, sharing simulatedClock: VirtualClock?, hardwareClock: any MonotonicClock
    ) throws(BoardChipsError) -> [OpenedPCMActuator] {
        let virtualClock = simulatedClock ?? VirtualClock()
        var opened: [OpenedPCMActuator] = []
        for (index, actuator) in file.description.actuators.enumerated() {
            guard let pcm = actuator.pcm else { continue }
            do {
                if pcm.device == BuiltInBoard.simName || simulatingEveryDevice {
                    opened.append(try file.simulatedPCMActuator(at: index, clock: virtualClock))
                } else {
                    opened.append(OpenedPCMActuator(
                        name: actuator.name, actuator: try file.pcmActuator(at: index, clock: hardwareClock), clock: hardwareClock,
                        maximumContinuousDrive: actuator.maxContinuousDriveMs.map { .milliseconds($0) }, simulation: nil
                    ))
                }
            } catch {
                throw .boardFile(error)
            }
        }
        return opened
    }

    /// Opens the DRV260x chips (`compatible: ti,drv260…`) a board file lists, each with its
    /// configuration. A bus whose device is `sim` is simulated (`SimulatedBoardHardware`); any
    /// other bus is a Linux i2c-dev node, opened once however many chips and muxes sit on it.
    static func open(_ file: BoardFile, simulatingEveryBus: Bool = false) throws(BoardChipsError) -> BoardChips {
        if let problem = BoardRules(file: file).problems().first { throw .boardFile(problem) }
        let description = file.description
        var hardware = LinuxBoardHardware()
        var simulatedHardware = SimulatedBoardHardware(file: file)
        var chips: [OpenedChip] = []
        for (index, actuator) in description.actuators.enumerated() where actuator.compatible.hasPrefix("ti,drv260") {
            let configuration: DRV2605Configuration
            do { configuration = try file.drv2605Configuration(forActuatorAt: index) } catch { throw .boardFile(error) }
            let mux = description.muxes.first { $0.name == actuator.mux }
            guard let bus = description.buses.first(where: { $0.name == (actuator.bus ?? mux?.bus) }) else {
                throw .boardFile(file.problem(at: BoardKeyPath([.key("actuators"), .index(index)]), "the chip's bus is not defined"))
            }
            let driver: DRV2605
            var simulation: SimulatedBoard?
            let variant = DRV2605Variant(compatible: actuator.compatible)
            if bus.device == BuiltInBoard.simName || simulatingEveryBus {
                // The simulated chip is the part the board names, so a DRV2604 board plays as one.
                (driver, simulation) = try simulatedHardware.driver(forActuatorAt: index, variant: variant, on: bus, behind: mux)
            } else {
                driver = try hardware.driver(for: actuator, at: index, configuration: configuration, on: bus, behind: mux, in: file)
            }
            chips.append(OpenedChip(
                name: actuator.name,
                driver: driver,
                configuration: configuration,
                variant: variant,
                maximumContinuousDrive: actuator.maxContinuousDriveMs.map { .milliseconds($0) },
                statusPollInterval: actuator.statusPollMs.map { $0 > 0 ? .milliseconds($0) : nil } ?? EngineActuator.defaultStatusPollInterval,
                simulation: simulation,
                isStandIn: simulation != nil && bus.device != BuiltInBoard.simName
            ))
        }
        let pcmActuators = try openPCMActuators(of: file, simulatingEveryDevice: simulatingEveryBus, sharing: chips.first?.simulation?.clock, hardwareClock: hardware.clock)
        // Last, once every chip's bus is open and its EN line requested: the guardian needs both.
        let guardian = try hardware.startCrashGuardian()
        return BoardChips(
            boardName: description.board, chips: chips, pcmActuators: pcmActuators, file: file, power: description.power,
            crashGuardian: guardian
        )
    }

    /// Ends the crash guardian at an orderly end — the chips stopped, in standby or off — so that it
    /// neither writes to a chip a later command opens nor holds an EN line it wants. The command's
    /// work is done by then, so a failure is a warning on standard error, not an error.
    func disarmCrashGuardian() {
        do {
            try crashGuardian?.disarm()
        } catch {
            printError("hapticboard: warning: \(error)")
        }
    }

}
