import ActuatorHAL
import ActuatorHALLinux
import HapticRuntime
import HardwareMocks

/// What a command opens a board on: simulated devices for whatever the board file calls `sim`
/// (for `inspect` and `render`, which only need the board as configured, for every device), the
/// Linux devices for the rest — opened only when a real device is asked for.
final class CommandBoardHardware: BoardHardware {
    /// The simulated devices: their chips, captured PCM streams and virtual clock.
    let simulated: SimulatedBoardHardware
    private let simulatesEveryDevice: Bool
    private let usesRealDevices: Bool
    private lazy var linux = LinuxBoardHardware()
    /// The simulated board's input lines handed out, so a line is not requested twice.
    private var idleLines: Set<String> = []
    /// The drivers of real chips, which alone need protecting.
    private var realChips: Set<ObjectIdentifier> = []

    /// Hardware for `board`: every device simulated when `simulatingEveryDevice`.
    init(for board: Board, simulatingEveryDevice: Bool) {
        simulated = SimulatedBoardHardware(soundDecoder: SoundFileDecoder())
        simulatesEveryDevice = simulatingEveryDevice
        usesRealDevices = !simulatingEveryDevice && !board.isSimulated
    }

    /// The Linux clock when any device is real — a virtual clock cannot keep time with real
    /// devices — else the simulation's virtual clock.
    var clock: any MonotonicClock { usesRealDevices ? linux.clock : simulated.clock }

    var soundDecoder: any SoundDecoder { simulated.soundDecoder }

    func drv2605(at placement: ChipPlacement) throws -> DRV2605 {
        if isSimulated(placement.bus.device) { return try simulated.drv2605(at: placement) }
        let driver = try linux.drv2605(at: placement)
        realChips.insert(ObjectIdentifier(driver))
        return driver
    }

    func openPCM(device: String, format: PCMFormat, for owner: String) throws(PCMError) -> any PCMSink {
        try isSimulated(device) ? simulated.openPCM(device: device, format: format, for: owner) : linux.openPCM(device: device, format: format, for: owner)
    }

    /// The real uinput device: even on the simulated board, games and `fftest` drive it for real.
    func createForceFeedbackDevice(_ setup: ForceFeedbackDeviceSetup) throws(ForceFeedbackError) -> any ForceFeedbackDevice {
        try linux.createForceFeedbackDevice(setup)
    }

    /// The input device, or a simulated stand-in for `sim` (and for every device when simulating all).
    func openForceFeedbackSink(at location: InputDeviceLocation, for owner: String) throws(ForceFeedbackError) -> any ForceFeedbackSink {
        if simulatesEveryDevice || location == .path(Board.simName) {
            return simulated.forceFeedbackStandIn(for: owner).connect()
        }
        return try linux.openForceFeedbackSink(at: location, for: owner)
    }

    /// Real libgpiod lines on a board with real devices. On a simulated board, lines nobody
    /// presses that block their reader in real time, as an idle GPIO line does (a
    /// `SimulatedInputLine` would move the virtual clock on every wait and run ahead of the pace).
    func openInput(_ line: GPIOLineSpecifier, settings: InputLineSettings, for owner: String) throws(GPIOError) -> any ConfiguredDigitalInput {
        if usesRealDevices { return try linux.openInput(line, settings: settings, for: owner) }
        guard !idleLines.contains(line.description) else { throw .lineBusy(line.description) }
        idleLines.insert(line.description)
        return QueuedInputLine(name: line.description, settings: settings)
    }

    /// A real input device, or for `sim` (and on a simulated board) an idle one nobody presses.
    func openKeySource(path: String) throws(KeySourceError) -> any KeyEventSource {
        if usesRealDevices && path != Board.simName { return try linux.openKeySource(path: path) }
        return QueuedKeySource(path: path)
    }

    /// Only real chips need protecting (a crash handler and a guardian process), and only the
    /// Linux side can.
    func protect(_ chips: [(driver: DRV2605, realtimeInput: DRV2605RealtimeInput)]) throws {
        let real = chips.filter { realChips.contains(ObjectIdentifier($0.driver)) }
        guard !real.isEmpty else { return }
        try linux.protect(real)
    }

    func standDown() {
        if !realChips.isEmpty { linux.standDown() }
    }

    /// Whether `device` (a bus or PCM device) opens simulated.
    func isSimulated(_ device: String) -> Bool {
        simulatesEveryDevice || device == Board.simName
    }
}
