import ActuatorHAL
import FoundationEssentials

extension Board {
    /// Opens the board's actuators on `hardware`: every chip's bus, switch and EN line (held low,
    /// so opening never moves a motor) and every PCM actuator (its device opens at wake), then
    /// arms the hardware's protection of the chips should the process die. Each chip restores
    /// `calibrations[name]` at every wake when given. No chip is written to here.
    /// - Throws: what the hardware throws for a bus, switch or line that would not open, or for a
    ///   protection that could not be armed.
    public func open(on hardware: any BoardHardware, calibrations: [String: DRV2605CalibrationResult] = [:]) throws -> OpenedBoard {
        var opened: [BoardActuator] = []
        for (index, entry) in actuators.enumerated() {
            do {
                opened.append(try open(entry, on: hardware, calibration: calibrations[entry.name]))
            } catch let error as ForceFeedbackError {
                // The device a board file names, located at the key that names it.
                throw BoardError.invalid([file.problem(at: inputDeviceKey(ofActuatorAt: index), "\(error)")])
            }
        }
        // Last, once every chip's bus is open and its EN line requested: protection needs both.
        try hardware.protect(opened.compactMap { actuator in
            actuator.drv2605.map { (driver: $0.driver, realtimeInput: $0.configuration.realtimeInputReading) }
        })
        return OpenedBoard(board: self, hardware: hardware, actuators: opened)
    }

    private func open(_ entry: ActuatorEntry, on hardware: any BoardHardware, calibration: DRV2605CalibrationResult?) throws -> BoardActuator {
        switch entry.drive {
        case .pcm(let device, let configuration):
            let actuator = PCMActuator(name: entry.name, configuration: configuration, clock: hardware.clock) { () throws(PCMError) -> any PCMSink in
                try hardware.openPCM(device: device, format: configuration.format, for: entry.name)
            }
            return BoardActuator(pcm: actuator, maximumContinuousDrive: entry.maximumContinuousDrive)
        case .drv2605(let placement, let configuration):
            let actuator = DRV2605Actuator(
                name: entry.name, driver: try hardware.drv2605(at: placement), configuration: configuration, calibration: calibration,
                maximumContinuousDrive: entry.maximumContinuousDrive, expectedVariant: placement.variant
            )
            return BoardActuator(drv2605: actuator, placement: placement, maximumContinuousDrive: entry.maximumContinuousDrive, statusPollInterval: entry.statusPollInterval)
        case .evdevForceFeedback(let location, let configuration):
            let sink = try hardware.openForceFeedbackSink(at: location, for: entry.name)
            do {
                return BoardActuator(forceFeedback: try ForceFeedbackActuator(name: entry.name, sink: sink, configuration: configuration),
                                     maximumContinuousDrive: entry.maximumContinuousDrive, statusPollInterval: entry.statusPollInterval)
            } catch {
                sink.close()
                throw error
            }
        }
    }
}

/// A board whose actuators are open on its hardware: make an engine for some or all of them,
/// open the sound output, and `close()` at the end, once every actuator is stopped.
public final class OpenedBoard {
    /// The board as its file describes it.
    public let board: Board
    /// What it was opened on.
    public let hardware: any BoardHardware
    /// Every actuator, in board order.
    public let actuators: [BoardActuator]

    init(board: Board, hardware: any BoardHardware, actuators: [BoardActuator]) {
        self.board = board
        self.hardware = hardware
        self.actuators = actuators
    }

    /// The clock every device of the board runs on.
    public var clock: any MonotonicClock { hardware.clock }

    /// The actuator named `name`, if the board has one.
    public func actuator(named name: String) -> BoardActuator? {
        actuators.first { $0.name == name }
    }

    /// An engine driving `actuators` (by default every one of the board) with the board's idle
    /// timeouts, scheduling on `scheduler` (by default a new one on the board's clock). Content
    /// due on several chips behind one switch at one instant starts on all of them with one
    /// broadcast write where the chips answer the broadcast address; on other chips, with their
    /// start writes back to back (`DRV2605BackToBackStart`).
    public func makeEngine(for actuators: [BoardActuator]? = nil, scheduler: DeadlineScheduler? = nil) -> HapticEngine {
        let driven = actuators ?? self.actuators
        let scheduler = scheduler ?? DeadlineScheduler(clock: clock)
        let chips = driven.compactMap(\.drv2605)
        let broadcasts = DRV2605Broadcast.groups(of: chips)
        var synchronizers: [any ActuatorSynchronizer] = broadcasts
        if let backToBack = DRV2605BackToBackStart.group(of: chips, besides: broadcasts) { synchronizers.append(backToBack) }
        return HapticEngine(
            actuators: driven.map { $0.engineActuator(idleTimeouts: board.idleTimeouts) },
            clock: scheduler.clock,
            scheduler: scheduler,
            // One set of options for every actuator: PCM drive renders at the (first) PCM
            // actuator's stream rate.
            compilerOptions: driven.first { $0.pcm != nil }?.compilerOptions ?? CompilerOptions(),
            synchronizers: synchronizers
        )
    }

    /// The board's sound output (`audio:`) for an engine on `clock`, its sounds (AudioCustom
    /// waveforms, notes' sounds) resolving in `folder` and decoded by the hardware's decoder; nil
    /// for a board without one. Attach it with `HapticEngine.attachAudio(_:)`.
    /// - Throws: `PCMError` when the device does not open.
    public func openSoundOutput(soundsIn folder: URL, clock: (any MonotonicClock)? = nil) throws -> EngineAudio? {
        guard let output = board.file.description.audio?.output else { return nil }
        let format = try board.file.outputFormat(output, at: BoardKeyPath([.key("audio")]))
        return try openSoundOutput(device: output.device, format: format, soundsIn: folder, clock: clock)
    }

    /// A sound output on `device` in `format` (for a board without `audio:` whose hardware can
    /// still play sound, such as a simulation).
    public func openSoundOutput(device: String, format: PCMFormat, soundsIn folder: URL, clock: (any MonotonicClock)? = nil) throws -> EngineAudio {
        let sink = try hardware.openPCM(device: device, format: format, for: Self.soundOutputOwner)
        let sounds = SoundLibrary(decoder: hardware.soundDecoder, sampleRate: sink.format.sampleRate, folder: folder)
        return EngineAudio(output: AudioScheduler(sink: sink, clock: clock ?? self.clock), sounds: sounds)
    }

    /// The owner name the sound output's device is opened for.
    public static let soundOutputOwner = "audio"

    /// The end, once every actuator is stopped (the engine stopped, in standby or off): the
    /// hardware's protection stands down, so it never touches a chip another process opens next.
    public func close() {
        hardware.standDown()
    }
}
