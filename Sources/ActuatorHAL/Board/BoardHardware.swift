/// The devices a board is made of, as a board description opens them (`Board.open(on:)` in
/// HapticRuntime): chips on buses and switches, PCM devices, a sound decoder, one clock, and
/// whatever protects the chips if the process dies. The Linux back end's `LinuxBoardHardware`
/// opens i2c-dev buses, libgpiod lines and ALSA devices; HardwareMocks' `SimulatedBoardHardware`
/// simulated chips and devices on a virtual clock.
public protocol BoardHardware: AnyObject {
    /// The clock the hardware runs on; the engine schedules on it.
    var clock: any MonotonicClock { get }

    /// A driver for the chip at `placement`. Buses and switches open once and are shared by every
    /// chip on them; the EN line is requested low, so opening a board never makes a motor move.
    func drv2605(at placement: ChipPlacement) throws -> DRV2605

    /// Opens PCM device `device` for playback in `format` for `owner` (the actuator's name, or
    /// `audio` for the board's sound output): a PCM actuator's at each wake, the sound output once.
    func openPCM(device: String, format: PCMFormat, for owner: String) throws(PCMError) -> any PCMSink

    /// Decodes the sound files content names.
    var soundDecoder: any SoundDecoder { get }

    /// Every chip is open, each with the RTP input it reads: arms what stops them if the process
    /// dies without stopping them itself (on Linux the crash handler and a guardian process).
    func protect(_ chips: [(driver: DRV2605, realtimeInput: DRV2605RealtimeInput)]) throws

    /// An orderly end, after every chip was stopped: the protection stands down, so it never
    /// touches a chip another process opens next.
    func standDown()

    /// Creates a force-feedback device clients can drive (on Linux a uinput device), for a board
    /// that offers itself as one (`ForceFeedbackProvider` in HapticRuntime).
    func createForceFeedbackDevice(_ setup: ForceFeedbackDeviceSetup) throws(ForceFeedbackError) -> any ForceFeedbackDevice

    /// Opens an existing force-feedback device as a client, for an actuator that is one
    /// (`compatible: evdev-ff`).
    func openForceFeedbackSink(at location: InputDeviceLocation, for owner: String) throws(ForceFeedbackError) -> any ForceFeedbackSink

    /// Requests GPIO `line` as an input with both-edge events and `settings`, for input `owner`.
    func openInput(_ line: GPIOLineSpecifier, settings: InputLineSettings, for owner: String) throws(GPIOError) -> any ConfiguredDigitalInput

    /// Opens input device `path` to read its keys as buttons (`inputs: evdev:`).
    func openKeySource(path: String) throws(KeySourceError) -> any KeyEventSource
}

extension BoardHardware {
    /// Default for hardware without input devices: refuse, naming the device.
    public func createForceFeedbackDevice(_ setup: ForceFeedbackDeviceSetup) throws(ForceFeedbackError) -> any ForceFeedbackDevice {
        throw .unsupported("this hardware (\(type(of: self))) cannot create force-feedback devices ('\(setup.name)')")
    }

    /// Default for hardware without input devices: refuse, naming the device.
    public func openForceFeedbackSink(at location: InputDeviceLocation, for owner: String) throws(ForceFeedbackError) -> any ForceFeedbackSink {
        throw .unsupported("this hardware (\(type(of: self))) cannot open input devices (\(location), for \(owner))")
    }
}

extension BoardHardware {
    /// Default for hardware without GPIO inputs: the line is not there.
    public func openInput(_ line: GPIOLineSpecifier, settings: InputLineSettings, for owner: String) throws(GPIOError) -> any ConfiguredDigitalInput {
        throw .lineNotFound("\(line) (for input \(owner): \(type(of: self)) has no GPIO inputs)")
    }

    /// Default for hardware without input devices: the device is not there.
    public func openKeySource(path: String) throws(KeySourceError) -> any KeyEventSource {
        throw .open(path: path, errno: .noSuchFileOrDirectory)
    }
}
