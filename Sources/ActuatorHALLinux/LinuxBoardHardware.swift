import ActuatorHAL
import Logging

/// A board's real devices on Linux: i2c-dev buses, TCA9548A switches on them, EN lines through
/// libgpiod, ALSA devices, libsndfile. Each bus and switch is opened once and shared by every chip
/// on it, because two file descriptors on one adapter would not serialise a switch select with
/// its access.
///
/// A death must not leave a chip driving: `protect` arms each chip's stop table in the crash
/// handler and hands all of them, with the EN lines, to a guardian process that acts when this
/// process dies of anything (`CrashGuardian`); `standDown` ends the guardian at an orderly end.
public final class LinuxBoardHardware: BoardHardware {
    /// CLOCK_MONOTONIC, which every real device of the board runs on.
    public let clock: any MonotonicClock = SystemMonotonicClock()
    /// libsndfile, resampling with libsamplerate.
    public let soundDecoder: any SoundDecoder = SoundFileDecoder()
    private var buses: [String: LinuxI2CBus] = [:]
    private var switches: [String: TCA9548A] = [:]
    private var enableLines: [ObjectIdentifier: GPIOLineLocation] = [:]
    private var guardian: CrashGuardian?
    private let logger = Logger(label: "hapticboard.board")

    public init() {}

    /// A libgpiod input line with kernel timestamps, bias, active level and (libgpiod 2) debounce.
    public func openInput(_ line: GPIOLineSpecifier, settings: InputLineSettings, for owner: String) throws(GPIOError) -> any ConfiguredDigitalInput {
        try LinuxGPIOInput(line, settings: settings)
    }

    /// The keys of input device `path` (evdev), with kernel timestamps on CLOCK_MONOTONIC.
    public func openKeySource(path: String) throws(KeySourceError) -> any KeyEventSource {
        try EvdevKeySource(path: path)
    }

    public func drv2605(at placement: ChipPlacement) throws -> DRV2605 {
        let parent = try bus(placement.bus)
        var chipBus: any I2CBus = parent
        if let mux = placement.mux {
            chipBus = try tca9548a(mux, on: parent).channel(mux.channel)
        }
        var enableLine: LinuxGPIOOutput?
        var location: GPIOLineLocation?
        if let text = placement.enableLine {
            let line = try GPIOLineSpecifier(parsing: text)
            do throws(GPIOError) {
                let output = try LinuxGPIOOutput(line, initialLevel: .low)
                location = try output.location()
                enableLine = output
            } catch {
                throw LinuxBoardHardwareError.enableLine(actuator: placement.actuator, error)
            }
        }
        let driver = DRV2605(bus: chipBus, address: placement.address, enableLine: enableLine, clock: clock)
        if let location { enableLines[ObjectIdentifier(driver)] = location }
        return driver
    }

    public func openPCM(device: String, format: PCMFormat, for owner: String) throws(PCMError) -> any PCMSink {
        try ALSAPCMSink(device: device, format: format)
    }

    /// Arms every chip's stop table in the crash handler (a crash runs it in the dying process)
    /// and starts the guardian with all of them and the EN lines (a kill, which runs nothing).
    public func protect(_ chips: [(driver: DRV2605, realtimeInput: DRV2605RealtimeInput)]) throws {
        guard !chips.isEmpty else { return }
        var stops: [ChipStop] = []
        for (driver, input) in chips {
            let stop = try ChipStop(stopping: driver, realtimeInput: input)
            try EmergencyStop.arm(stop)
            stops.append(stop)
        }
        guardian = try CrashGuardian.start(stopping: stops, enableLines: chips.compactMap { enableLines[ObjectIdentifier($0.driver)] })
    }

    /// Ends the guardian, so it neither writes to a chip a later process opens nor holds an EN
    /// line it wants. The work is done by then: a failure is logged, not thrown.
    public func standDown() {
        do {
            try guardian?.disarm()
        } catch {
            logger.warning("\(error)")
        }
        guardian = nil
    }

    /// A uinput device (`UInputForceFeedbackDevice`).
    public func createForceFeedbackDevice(_ setup: ForceFeedbackDeviceSetup) throws(ForceFeedbackError) -> any ForceFeedbackDevice {
        try UInputForceFeedbackDevice(setup: setup)
    }

    /// The input device node at the path, or the first one with the name (`EvdevForceFeedbackSink`).
    public func openForceFeedbackSink(at location: InputDeviceLocation, for owner: String) throws(ForceFeedbackError) -> any ForceFeedbackSink {
        switch location {
        case .path(let path): try EvdevForceFeedbackSink(path: path)
        case .name(let name): try EvdevForceFeedbackSink(named: name)
        }
    }

    private func bus(_ description: ChipPlacement.Bus) throws(I2CError) -> LinuxI2CBus {
        if let open = buses[description.name] { return open }
        let bus = try LinuxI2CBus(path: description.device, speedHz: description.speedHz)
        buses[description.name] = bus
        return bus
    }

    private func tca9548a(_ mux: ChipPlacement.Mux, on parent: LinuxI2CBus) throws(TCA9548AError) -> TCA9548A {
        if let open = switches[mux.name] { return open }
        let opened = try TCA9548A(parent: parent, address: mux.address)
        switches[mux.name] = opened
        return opened
    }
}

/// A board device Linux would not give.
public enum LinuxBoardHardwareError: Error, CustomStringConvertible {
    /// The EN line could not be requested (busy, missing).
    case enableLine(actuator: String, GPIOError)

    public var description: String {
        switch self {
        case .enableLine(let actuator, let error): "actuator \(actuator): cannot request its enable line: \(error)"
        }
    }
}
