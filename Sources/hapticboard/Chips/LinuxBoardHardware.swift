import ActuatorHAL
import ActuatorHALLinux

/// The real devices behind a board file: i2c-dev buses, TCA9548A switches on them and EN lines
/// through libgpiod. Each bus and switch is opened once and shared by every chip on it, because
/// two file descriptors on one adapter would not serialise a switch select with its access.
///
/// A crash must not leave a chip driving: each chip's stop table is armed in the crash handler as
/// the chip is opened, and `startCrashGuardian()` hands all of them, with the EN lines, to a
/// guardian process that acts when this process dies of anything.
struct LinuxBoardHardware {
    private var buses: [String: LinuxI2CBus] = [:]
    private var muxes: [String: TCA9548A] = [:]
    /// The stop table of every chip opened, in board order.
    private var chipStops: [ChipStop] = []
    /// Where every chip's EN line is, in board order.
    private var enableLines: [GPIOLineLocation] = []
    /// CLOCK_MONOTONIC, which every real device of the board runs on.
    let clock = SystemMonotonicClock()

    /// A driver for `actuator` (entry `index` of `file`, configured with `configuration`), on `bus`
    /// or on its channel of `mux`, with its stop table armed in the crash handler.
    mutating func driver(
        for actuator: ActuatorDescription, at index: Int, configuration: DRV2605Configuration,
        on bus: BusDescription, behind mux: MuxDescription?, in file: BoardFile
    ) throws(BoardChipsError) -> DRV2605 {
        let path = BoardKeyPath([.key("actuators"), .index(index)])
        let parent = try linuxBus(bus)
        let chipBus: any I2CBus
        if let mux {
            guard let channel = actuator.muxChannel else {
                throw .boardFile(file.problem(at: path, "a chip behind a mux needs 'mux-channel' (0...7)"))
            }
            let muxIndex = file.description.muxes.firstIndex { $0.name == mux.name } ?? 0
            guard let muxAddress = I2CAddress(mux.reg) else {
                throw .boardFile(file.problem(at: BoardKeyPath([.key("muxes"), .index(muxIndex), .key("reg")]), "\(mux.reg) is not a 7-bit I2C address"))
            }
            do {
                chipBus = try self.mux(mux.name, at: muxAddress, on: parent).channel(channel)
            } catch {
                throw .boardFile(file.problem(at: path.appending("mux-channel"), "\(error)"))
            }
        } else {
            chipBus = parent
        }
        guard let address = I2CAddress(actuator.reg) else {
            throw .boardFile(file.problem(at: path.appending("reg"), "\(actuator.reg) is not a 7-bit I2C address"))
        }
        let enableLine = try enableLine(of: actuator, at: path, in: file)
        let driver = DRV2605(bus: chipBus, address: address, enableLine: enableLine, clock: clock)
        let stop: ChipStop
        do {
            stop = try ChipStop(stopping: driver, realtimeInput: configuration.realtimeInputReading)
        } catch {
            throw .chipStop(actuator: actuator.name, error)
        }
        do {
            try EmergencyStop.arm(stop)
        } catch {
            throw .emergencyStop(actuator: actuator.name, error)
        }
        chipStops.append(stop)
        if let enableLine {
            do {
                enableLines.append(try enableLine.location())
            } catch {
                throw .enableLine(actuator: actuator.name, error)
            }
        }
        return driver
    }

    /// Starts the crash guardian for every chip opened so far and their EN lines; nil when no real
    /// chip was opened. The buses stay open as long as the chips' drivers do.
    func startCrashGuardian() throws(BoardChipsError) -> CrashGuardian? {
        guard !chipStops.isEmpty else { return nil }
        do {
            return try CrashGuardian.start(stopping: chipStops, enableLines: enableLines)
        } catch {
            throw .crashGuardian(error)
        }
    }

    private mutating func linuxBus(_ description: BusDescription) throws(BoardChipsError) -> LinuxI2CBus {
        if let open = buses[description.name] { return open }
        do {
            let bus = try LinuxI2CBus(path: description.device, speedHz: description.clockFrequency)
            buses[description.name] = bus
            return bus
        } catch {
            throw .bus(error)
        }
    }

    private mutating func mux(_ name: String, at address: I2CAddress, on parent: LinuxI2CBus) throws(TCA9548AError) -> TCA9548A {
        if let open = muxes[name] { return open }
        let mux = try TCA9548A(parent: parent, address: address)
        muxes[name] = mux
        return mux
    }

    /// EN starts low: the chip is off until the driver wakes it, so opening a board never makes
    /// a motor move.
    private func enableLine(of actuator: ActuatorDescription, at path: BoardKeyPath, in file: BoardFile) throws(BoardChipsError) -> LinuxGPIOOutput? {
        guard let text = actuator.enableGPIOs else { return nil }
        let line: GPIOLineSpecifier
        do {
            line = try GPIOLineSpecifier(parsing: text)
        } catch {
            throw .boardFile(file.problem(at: path.appending("enable-gpios"), "\(error)"))
        }
        do {
            return try LinuxGPIOOutput(line, initialLevel: .low)
        } catch {
            throw .enableLine(actuator: actuator.name, error)
        }
    }
}
