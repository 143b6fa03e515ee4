import ActuatorHAL
import FoundationEssentials

/// A board's inputs running: every line requested, one reader thread each, edges decoded and
/// played through the bindings (when a service is given; without one, edges are only decoded
/// and reported, as `hapticboard buttons` does on a board without actuators… or for a look).
///
/// ```swift
/// let inputs = try BoardInputs(board.inputs, hardware: hardware, service: service)
/// inputs.start()
/// defer { inputs.stop() }
/// ```
public final class BoardInputs: @unchecked Sendable {
    public let configuration: BoardInputConfiguration
    public let decoder: InputDecoder
    public let bindings: InputBindings?
    public let readers: [InputLineReader]
    /// The reader of `inputs: evdev:`, when the board has one.
    public let keyReader: InputKeyReader?

    /// Requests every line of `configuration` on `hardware`; with `device` (the board's
    /// force-feedback device, created with `Board.forceFeedbackSetup`), presses of buttons with a
    /// `key` are also reported there as EV_KEY and steps of encoders with an `axis` as EV_REL; with
    /// `forceFeedback` (the provider answering that device, which is then the device when none is
    /// given), such a press also starts the effects whose `trigger.button` is its key.
    /// - Throws: `GPIOError` for the first line that cannot be had (missing, busy, permission),
    ///   with every line requested before it released; `KeySourceError` for an evdev device that
    ///   cannot be opened.
    public init(
        _ configuration: BoardInputConfiguration, hardware: any BoardHardware, service: HapticService?,
        device: (any ForceFeedbackDevice)? = nil, forceFeedback: ForceFeedbackProvider? = nil
    ) throws {
        self.configuration = configuration
        var opened: [(any ConfiguredDigitalInput, InputDecoder.LineRole)] = []
        for button in configuration.buttons {
            opened.append((try hardware.openInput(button.line, settings: button.settings, for: button.name), .button(button.name)))
        }
        for encoder in configuration.encoders {
            opened.append((try hardware.openInput(encoder.a, settings: encoder.settings, for: encoder.name), .encoderA(encoder.name)))
            opened.append((try hardware.openInput(encoder.b, settings: encoder.settings, for: encoder.name), .encoderB(encoder.name)))
        }
        func level(_ role: InputDecoder.LineRole) -> LineLevel {
            (try? opened.first { $0.1 == role }?.0.read()) ?? .low
        }
        // Software debounce only where the line does not debounce in the kernel.
        let buttons = opened.compactMap { line, role -> (name: String, debounce: Duration, initial: LineLevel)? in
            guard case .button(let name) = role else { return nil }
            return (name, line.kernelDebounce > .zero ? .zero : line.settings.debounce, level(role))
        }
        decoder = InputDecoder(
            buttons: buttons,
            encoders: configuration.encoders.map { ($0.name, level(.encoderA($0.name)), level(.encoderB($0.name)), $0.transitionsPerDetent) }
        )
        let bindings = service.map { InputBindings(service: $0, bindings: configuration.bindings) }
        self.bindings = bindings
        let decoder = decoder
        readers = opened.map { InputLineReader(line: $0.0, role: $0.1, clock: hardware.clock, decoder: decoder, bindings: bindings) }
        keyReader = try configuration.evdev.map { evdev in
            InputKeyReader(source: try hardware.openKeySource(path: evdev.device), keys: evdev.keys, bindings: bindings)
        }
        if let device = device ?? forceFeedback?.device {
            let output = InputDeviceOutput(configuration: configuration, device: device, decoder: decoder, triggers: forceFeedback)
            for reader in readers { reader.eventHandler = { output.report($0) } }
            keyReader?.eventHandler = { output.report($0) }
        }
    }

    /// Starts every reader's thread, each set up by `threadSetup`: real-time priority just below
    /// the timing thread's (`RealtimeThread.inputPriority`), so a press is read at once under load.
    /// - Throws: `PlatformThreadError` when the system refuses a thread; the readers already
    ///   started are stopped again.
    public func start(threadSetup: (any TimingThreadSetup)? = nil) throws(PlatformThreadError) {
        do {
            for reader in readers { try reader.start(threadSetup: threadSetup) }
            try keyReader?.start(threadSetup: threadSetup)
        } catch {
            stop()
            throw error
        }
    }

    /// Stops the readers, then every held binding.
    public func stop() {
        for reader in readers { reader.stop() }
        keyReader?.stop()
        bindings?.stopAll()
    }
}
