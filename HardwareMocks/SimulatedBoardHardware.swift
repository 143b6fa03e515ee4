import ActuatorHAL
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A board's devices simulated on one virtual clock, for a board file whose buses and devices
/// are `sim` — or, to see what a real board would do without touching it, for every device: a
/// chip directly on a bus is a `SimulatedBoard` of its own; the chips behind one switch share one
/// `SimulatedMuxBoard`; a PCM device is a `PCMCaptureSink` that keeps everything played.
public final class SimulatedBoardHardware: BoardHardware {
    /// The board's virtual time.
    public let virtualClock: VirtualClock
    /// Each chip's simulated board (its chip model, bus and EN line), by actuator name.
    public private(set) var chips: [String: SimulatedBoard] = [:]
    /// Every PCM device opened, by owner (an actuator's name, `audio`), one per open, oldest first.
    public private(set) var pcmSinks: [String: [PCMCaptureSink]] = [:]
    /// Every force-feedback device created (`createForceFeedbackDevice`), oldest first.
    public private(set) var forceFeedbackDevices: [SimulatedForceFeedbackDevice] = []
    /// The input devices `openForceFeedbackSink` finds, by path (`addInputDevice`).
    public private(set) var inputDevices: [String: SimulatedForceFeedbackDevice] = [:]
    /// Every GPIO input requested (`openInput`), by the line as the board file names it
    /// (`GPIO17`, `gpiochip0:17`): tests inject edges into these.
    public private(set) var inputLines: [String: SimulatedInputLine] = [:]
    /// Every input device opened for its keys (`openKeySource`), by path.
    public private(set) var keySources: [String: QueuedKeySource] = [:]
    /// When set, every simulated chip keeps only about this many of its newest bus transactions,
    /// drive changes and EN changes (`SimulatedBoard.keepOnlyRecentHistory`), and every simulated
    /// sound device about this many periods of what it played (`PCMCaptureSink.captureLimit`), and
    /// every simulated force-feedback device and recorder about this many requests and events: a
    /// service or a controller on the simulated board then runs for months in bounded memory.
    /// Nil (the default): everything is kept, for tests and reports that read it all.
    public var historyLimit: Int? {
        didSet {
            for board in chips.values { board.keepOnlyRecentHistory(historyLimit) }
            for sink in pcmSinks.values.joined() { sink.captureLimit = historyLimit.map { $0 * sink.format.periodFrames } }
            // The stand-ins' recorders follow their devices.
            for device in forceFeedbackDevices + inputDevices.values { device.historyLimit = historyLimit }
        }
    }
    /// How many opened sound devices per owner a history limit keeps.
    static let keptDevicesPerOwner = 4
    /// The wire level each simulated input line starts at, by line (default: low).
    public var initialInputLevels: [String: LineLevel] = [:]
    /// Whether simulated lines debounce in the kernel (uAPI v2) or leave it to the reader (v1).
    public var inputsDebounceInKernel = true
    private var switches: [String: (board: SimulatedMuxBoard, mux: TCA9548A)] = [:]
    private let decoder: (any SoundDecoder)?

    /// Hardware on `clock`, decoding sound files with `soundDecoder` (none: a sound file cannot be
    /// played, and says so).
    public init(clock: VirtualClock = VirtualClock(), soundDecoder: (any SoundDecoder)? = nil) {
        virtualClock = clock
        decoder = soundDecoder
    }

    public var clock: any MonotonicClock { virtualClock }

    public var soundDecoder: any SoundDecoder { decoder ?? NoSoundDecoder() }

    /// A simulated chip of the part the placement names, at its place.
    public func drv2605(at placement: ChipPlacement) throws -> DRV2605 {
        let variant = DRV2605Model.Variant(placement.variant)
        guard let mux = placement.mux else {
            let board = SimulatedBoard(variant: variant, speedHz: placement.bus.speedHz, clock: virtualClock)
            board.keepOnlyRecentHistory(historyLimit)
            chips[placement.actuator] = board
            return DRV2605(bus: board.bus, address: SimulatedBoard.chipAddress, enableLine: board.enableLine, clock: virtualClock)
        }
        let (muxBoard, tca9548a) = try switchBoard(named: mux.name, speedHz: placement.bus.speedHz)
        let board = try muxBoard.addChip(on: mux.channel, variant: variant)
        board.keepOnlyRecentHistory(historyLimit)
        chips[placement.actuator] = board
        return DRV2605(bus: try tca9548a.channel(mux.channel), address: SimulatedBoard.chipAddress, enableLine: board.enableLine, clock: virtualClock)
    }

    /// A capture sink with the four-period buffer a real device is asked for, so a drive block
    /// too long to fit makes the writer wait here as it would there.
    public func openPCM(device: String, format: PCMFormat, for owner: String) throws(PCMError) -> any PCMSink {
        // ALSA finds no card to open: its device node is gone.
        guard !unpluggedPCMOwners.contains(owner) else { throw .open(device: device, errno: .noSuchFileOrDirectory) }
        // Its position moves a period at a time, as a real device's does, and it is shared as a
        // Pi's default device is (dmix): a write reaches it as far as its window.
        let phase = format.duration(ofFrames: format.periodFrames / 2)
        let sink = try PCMCaptureSink(
            name: "sim \(owner)", format: format, positionGranularity: .period(phase: phase), sharing: .direct(periodPhase: phase), clock: virtualClock
        )
        sink.captureLimit = historyLimit.map { $0 * format.periodFrames }
        pcmSinks[owner, default: []].append(sink)
        // A PCM actuator opens its device at every wake: under a history limit only the newest
        // devices are kept.
        if historyLimit != nil, let opened = pcmSinks[owner], opened.count > Self.keptDevicesPerOwner {
            pcmSinks[owner] = Array(opened.suffix(Self.keptDevicesPerOwner))
        }
        return sink
    }

    /// The owners whose PCM device is unplugged (`unplugPCM(of:)`).
    public private(set) var unpluggedPCMOwners: Set<String> = []

    /// Unplugs `owner`'s PCM device (a USB sound card pulled out): every call on its open sinks
    /// fails with ENODEV, as ALSA's do, and opening it fails until `plugInPCM(of:)`.
    public func unplugPCM(of owner: String) {
        unpluggedPCMOwners.insert(owner)
        for sink in pcmSinks[owner] ?? [] { sink.injectedFailure = .io(device: sink.name, errno: .operationNotSupportedByDevice) }
    }

    /// Plugs `owner`'s PCM device in again: the next open finds it (sinks opened before stay dead).
    public func plugInPCM(of owner: String) {
        unpluggedPCMOwners.remove(owner)
    }

    /// A simulated device behaving as the kernel does towards its clients, found at
    /// `/dev/input/sim-ff<N>`.
    public func createForceFeedbackDevice(_ setup: ForceFeedbackDeviceSetup) throws(ForceFeedbackError) -> any ForceFeedbackDevice {
        let device = SimulatedForceFeedbackDevice(setup: setup, clientPath: "/dev/input/sim-ff\(forceFeedbackDevices.count)")
        device.historyLimit = historyLimit
        forceFeedbackDevices.append(device)
        return device
    }

    /// The rumble device standing in for `owner`'s input device (`device: sim`, or a real device
    /// when only the board's configuration matters): rumble, sine periodic, constant and gain in
    /// 16 slots, answered and recorded by a `ForceFeedbackRecorder` (`forceFeedbackRecorders`).
    public func forceFeedbackStandIn(for owner: String) -> SimulatedForceFeedbackDevice {
        let path = "sim:\(owner)"
        if let made = inputDevices[path] { return made }
        let capabilities = ForceFeedbackCapabilities(effectTypes: [.rumble, .periodic, .constant], waveforms: [.sine], supportsGain: true, effectSlots: 16)
        let device = SimulatedForceFeedbackDevice(setup: ForceFeedbackDeviceSetup(name: "simulated rumble (\(owner))", capabilities: capabilities), clientPath: path)
        device.historyLimit = historyLimit
        forceFeedbackRecorders[owner] = ForceFeedbackRecorder(device: device, clock: virtualClock)
        inputDevices[path] = device
        return device
    }

    /// The recorders of the stand-in input devices, by owner.
    public private(set) var forceFeedbackRecorders: [String: ForceFeedbackRecorder] = [:]

    /// Puts `device` where `openForceFeedbackSink` finds it: at `path`, and by its name.
    public func addInputDevice(_ device: SimulatedForceFeedbackDevice, at path: String) {
        if historyLimit != nil { device.historyLimit = historyLimit }
        inputDevices[path] = device
    }

    /// A new client of the input device at the location, as the kernel would open it: a device
    /// without force feedback (no effect types) is refused.
    public func openForceFeedbackSink(at location: InputDeviceLocation, for owner: String) throws(ForceFeedbackError) -> any ForceFeedbackSink {
        if location == .path("sim") { return forceFeedbackStandIn(for: owner).connect() }
        let found: (path: String, device: SimulatedForceFeedbackDevice)?
        switch location {
        case .path(let path): found = inputDevices[path].map { (path, $0) }
        case .name(let name): found = inputDevices.sorted { $0.key < $1.key }.first { $0.value.setup.name == name }.map { ($0.key, $0.value) }
        }
        guard let found else {
            if case .name(let name) = location { throw .noDeviceNamed(name, searched: "the simulated input devices") }
            throw .open(device: location.description, errno: .noSuchFileOrDirectory)
        }
        guard !found.device.setup.capabilities.effectTypes.isEmpty else {
            throw .notForceFeedback(device: "\(found.path) ('\(found.device.setup.name)')", reason: "has no EV_FF: it is not a force-feedback device")
        }
        return found.device.connect()
    }

    /// Nothing outlives a simulation.
    /// A simulated line on the board's clock; a line already requested is busy, as in the kernel.
    public func openInput(_ line: GPIOLineSpecifier, settings: InputLineSettings, for owner: String) throws(GPIOError) -> any ConfiguredDigitalInput {
        let key = line.description
        guard inputLines[key] == nil else { throw .lineBusy(key) }
        let simulated = SimulatedInputLine(
            name: key, initial: initialInputLevels[key] ?? .low, clock: virtualClock, settings: settings, debouncesInKernel: inputsDebounceInKernel
        )
        inputLines[key] = simulated
        return simulated
    }

    /// A simulated keypad at `path`; tests inject its keys.
    public func openKeySource(path: String) throws(KeySourceError) -> any KeyEventSource {
        let source = QueuedKeySource(path: path)
        keySources[path] = source
        return source
    }

    public func protect(_ chips: [(driver: DRV2605, realtimeInput: DRV2605RealtimeInput)]) throws {}

    public func standDown() {}

    private func switchBoard(named name: String, speedHz: Int) throws -> (SimulatedMuxBoard, TCA9548A) {
        if let made = switches[name] { return made }
        let board = try SimulatedMuxBoard(speedHz: speedHz, clock: virtualClock)
        let made = (board: board, mux: try TCA9548A(parent: board.bus, address: SimulatedMuxBoard.muxAddress))
        switches[name] = made
        return made
    }
}

/// The decoder of hardware given none: every sound file is refused with the reason.
struct NoSoundDecoder: SoundDecoder {
    func decode(contentsOf url: URL, sampleRate: Int) throws(SoundFileError) -> DecodedSound {
        throw .unreadable(path: url.path, reason: "this simulated board was given no sound decoder")
    }

    func decodeMono(contentsOf url: URL, maximumDuration: Double) throws(SoundFileError) -> MonoSound {
        throw .unreadable(path: url.path, reason: "this simulated board was given no sound decoder")
    }
}
