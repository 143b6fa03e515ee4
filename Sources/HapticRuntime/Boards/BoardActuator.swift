import ActuatorHAL

/// One actuator of an opened board as the engine drives it: a DRV2605-class chip on I2C
/// (`drv2605`), or an LRA or voice coil driven as audio on a PCM device (`pcm`).
public struct BoardActuator {
    /// Its name in the board file (`main`, `left`).
    public let name: String
    /// What the engine drives: `drv2605` or `pcm`.
    public let actuator: any Actuator
    /// The chip's actuator, for a DRV2605-class chip; nil for a PCM actuator.
    public let drv2605: DRV2605Actuator?
    /// The PCM actuator, for `compatible: pcm-actuator`; nil for a chip.
    public let pcm: PCMActuator?
    /// The input device's actuator, for `compatible: evdev-ff`; nil otherwise.
    public let forceFeedback: ForceFeedbackActuator?
    /// Where the chip sits, for a chip.
    public let placement: ChipPlacement?
    /// The board file's `max-continuous-drive-ms`; nil leaves the actuator's own limit.
    public let maximumContinuousDrive: Duration?
    /// How often the engine reads the actuator's status while it plays (`status-poll-ms`); nil
    /// for none — a PCM device reports no faults.
    public let statusPollInterval: Duration?

    /// A chip's actuator.
    init(drv2605: DRV2605Actuator, placement: ChipPlacement, maximumContinuousDrive: Duration?, statusPollInterval: Duration?) {
        name = drv2605.name
        actuator = drv2605
        self.drv2605 = drv2605
        pcm = nil
        forceFeedback = nil
        self.placement = placement
        self.maximumContinuousDrive = maximumContinuousDrive
        self.statusPollInterval = statusPollInterval
    }

    /// A PCM actuator.
    init(pcm: PCMActuator, maximumContinuousDrive: Duration?) {
        name = pcm.name
        actuator = pcm
        drv2605 = nil
        self.pcm = pcm
        forceFeedback = nil
        placement = nil
        self.maximumContinuousDrive = maximumContinuousDrive
        statusPollInterval = nil
    }

    /// An input device's actuator, polled for its presence.
    init(forceFeedback: ForceFeedbackActuator, maximumContinuousDrive: Duration?, statusPollInterval: Duration?) {
        name = forceFeedback.name
        actuator = forceFeedback
        drv2605 = nil
        pcm = nil
        self.forceFeedback = forceFeedback
        placement = nil
        self.maximumContinuousDrive = maximumContinuousDrive
        self.statusPollInterval = statusPollInterval
    }

    /// The options to compile content for this actuator: mode switches planned at its prepare
    /// budget; for PCM drive, its stream's rate in blocks its buffer takes without a wait.
    public var compilerOptions: CompilerOptions {
        var options = CompilerOptions(modeSwitchCost: actuator.budget(for: .prepare))
        if let pcm {
            options.pcmSampleRate = pcm.configuration.format.sampleRate
            options.pcmBlockDuration = pcm.pcmBlockDuration.secondsValue
        }
        return options
    }

    /// The actuator as an engine drives it, going idle after `idleTimeouts`.
    public func engineActuator(idleTimeouts: IdleTimeouts) -> EngineActuator {
        EngineActuator(actuator, name: name, idleTimeouts: idleTimeouts, maximumContinuousDrive: maximumContinuousDrive, statusPollInterval: statusPollInterval)
    }
}
