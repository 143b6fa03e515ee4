import ActuatorHAL
import HapticRuntime
import HardwareMocks

/// One actuator of an opened board as the runtime drives it: a DRV2605-class chip on I2C, or a
/// PCM-driven actuator on an ALSA device.
struct BoardActuator {
    var name: String
    /// What the engine drives.
    var actuator: any Actuator
    /// The chip and its driver-level actuator, for a DRV2605-class actuator; nil for a PCM one.
    var chip: OpenedChip?
    var drv2605: DRV2605Actuator?
    /// The PCM actuator, for `compatible: pcm-actuator`; nil for a chip.
    var pcm: OpenedPCMActuator?
    /// The board file's `max-continuous-drive-ms`.
    var maximumContinuousDrive: Duration?
    /// How often the engine reads the actuator's status while it plays; nil for none (a PCM
    /// device reports no faults).
    var statusPollInterval: Duration?
    /// The clock the actuator's hardware (or simulation) runs on.
    var clock: any MonotonicClock

    /// The simulated board behind a chip on the sim board (or a stand-in), else nil.
    var simulation: SimulatedBoard? { chip?.simulation }
    /// The virtual clock of a simulated chip or PCM device, else nil.
    var simulatedClock: VirtualClock? { chip?.simulation?.clock ?? pcm?.simulation?.clock }

    /// An actuator on `chip`, restoring `calibration` at every wake when one is stored.
    init(chip: OpenedChip, calibration: DRV2605CalibrationResult?) {
        let driver = DRV2605Actuator(
            name: chip.name,
            driver: chip.driver,
            configuration: chip.configuration,
            calibration: calibration,
            maximumContinuousDrive: chip.maximumContinuousDrive,
            expectedVariant: chip.variant
        )
        name = chip.name
        actuator = driver
        self.chip = chip
        drv2605 = driver
        maximumContinuousDrive = chip.maximumContinuousDrive
        statusPollInterval = chip.statusPollInterval
        clock = chip.driver.clock
    }

    /// A PCM-driven actuator.
    init(pcm: OpenedPCMActuator) {
        name = pcm.name
        actuator = pcm.actuator
        self.pcm = pcm
        maximumContinuousDrive = pcm.maximumContinuousDrive
        clock = pcm.clock
    }

    /// Opens and closes a real PCM actuator's ALSA device, so a missing or busy device is reported
    /// as such before playing: it opens only at wake, inside the engine, whose stop reason (device
    /// lost) would not say why. Nothing to do for chips (their bus opened with the board) or
    /// simulated devices.
    func checkDeviceOpens() throws {
        guard pcm != nil, simulatedClock == nil else { return }
        try actuator.wake()
        try actuator.sleep()
    }

    /// Whether a stored calibration is restored at wake (only DRV2605-class chips have one).
    var hasCalibration: Bool { drv2605?.calibration != nil }

    /// What the compiler may ask of the actuator, without waking hardware: for a chip not yet
    /// woken, the variant the board file names.
    var configuredCapabilities: ActuatorCapabilities { actuator.capabilities }

    /// The options to compile for this actuator: mode switches planned at its prepare budget, PCM
    /// drive at its stream's rate in blocks its buffer takes without a wait.
    var compilerOptions: CompilerOptions {
        var options = CompilerOptions(modeSwitchCost: actuator.budget(for: .prepare))
        if let pcm {
            options.pcmSampleRate = pcm.actuator.configuration.format.sampleRate
            options.pcmBlockDuration = pcm.actuator.pcmBlockDuration.secondsValue
        }
        return options
    }
}

extension BoardChips {
    /// The actuators a command works on: the one named `name`, or every one when `name` is nil.
    /// Each gets its stored calibration from `calibrations` (keyed by this board's name).
    func actuators(named name: String?, calibrations: CalibrationStore.Contents = .init()) throws(CommandLineError) -> [BoardActuator] {
        let all = chips.map { BoardActuator(chip: $0, calibration: calibrations.result(board: boardName, actuator: $0.name)) }
            + pcmActuators.map { BoardActuator(pcm: $0) }
        let selected = name.map { wanted in all.filter { $0.name == wanted } } ?? all
        if let name, selected.isEmpty {
            throw .unknownActuator(name, board: boardName, available: all.map(\.name))
        }
        guard !selected.isEmpty else { throw .noActuators(board: boardName) }
        return selected
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
        guard simulation != nil, chip?.isStandIn == false else { return configuredCapabilities }
        try actuator.wake()
        return actuator.capabilities
    }

    /// `pattern` compiled for this actuator, each mode switch planned at the actuator's prepare budget.
    func compile(_ pattern: HapticPattern, capabilities: ActuatorCapabilities) -> ActuatorProgram {
        PatternCompiler(capabilities: capabilities, options: compilerOptions).compile(pattern)
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
