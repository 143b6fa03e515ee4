import ActuatorHAL
import HapticRuntime
import HardwareMocks

/// One actuator of an opened board as the runtime drives it, with the chip it sits on.
struct BoardActuator {
    var chip: OpenedChip
    var actuator: DRV2605Actuator

    var name: String { chip.name }
    /// The simulated board behind the actuator on the sim board (or a stand-in), else nil.
    var simulation: SimulatedBoard? { chip.simulation }

    /// An actuator on `chip`, restoring `calibration` at every wake when one is stored.
    init(chip: OpenedChip, calibration: DRV2605CalibrationResult?) {
        self.chip = chip
        actuator = DRV2605Actuator(
            name: chip.name,
            driver: chip.driver,
            configuration: chip.configuration,
            calibration: calibration,
            maximumContinuousDrive: chip.maximumContinuousDrive
        )
    }

    /// What the compiler may ask of the actuator, without waking hardware: the driver's view of
    /// the configuration, with the ROM library of the chip the board file names (an unwoken
    /// driver has not read DEVICE_ID yet).
    var configuredCapabilities: ActuatorCapabilities {
        var capabilities = actuator.capabilities
        capabilities.romLibrary = chip.configuration.effectiveLibrary(on: chip.variant)
        return capabilities
    }
}

extension BoardChips {
    /// The actuators a command works on: the one named `name`, or every one when `name` is nil.
    /// Each gets its stored calibration from `calibrations` (keyed by this board's name).
    func actuators(named name: String?, calibrations: CalibrationStore.Contents = .init()) throws(CommandLineError) -> [BoardActuator] {
        let selected = name.map { wanted in chips.filter { $0.name == wanted } } ?? chips
        if let name, selected.isEmpty {
            throw .unknownActuator(name, board: boardName, available: chips.map(\.name))
        }
        guard !selected.isEmpty else { throw .noActuators(board: boardName) }
        return selected.map { BoardActuator(chip: $0, calibration: calibrations.result(board: boardName, actuator: $0.name)) }
    }

    /// The one actuator a command plays on: `name`, or the board's first.
    func actuator(named name: String?, calibrations: CalibrationStore.Contents = .init()) throws(CommandLineError) -> BoardActuator {
        let all = try actuators(named: name, calibrations: calibrations)
        return all[0]
    }
}

extension BoardActuator {
    /// Capabilities to compile for: on the sim board from the woken simulated chip (which has
    /// read its DEVICE_ID); for real hardware or its stand-in, from the board's configuration.
    func compilationCapabilities() throws -> ActuatorCapabilities {
        guard simulation != nil, !chip.isStandIn else { return configuredCapabilities }
        try actuator.wake()
        return actuator.capabilities
    }

    /// `pattern` compiled for this actuator, each mode switch planned at the actuator's prepare budget.
    func compile(_ pattern: HapticPattern, capabilities: ActuatorCapabilities) -> ActuatorProgram {
        let options = CompilerOptions(modeSwitchCost: actuator.budget(for: .prepare))
        return PatternCompiler(capabilities: capabilities, options: options).compile(pattern)
    }
}

extension BoardChips {
    /// The board file's `power` timeouts as the engine takes them; the engine's defaults where
    /// the file gives none.
    var idleTimeouts: IdleTimeouts {
        let defaults = IdleTimeouts.default
        return IdleTimeouts(
            standby: power?.standbyTimeoutMs.map { .milliseconds($0) } ?? defaults.standby,
            sleep: power?.offTimeoutMs.map { .milliseconds($0) } ?? defaults.sleep
        )
    }
}
