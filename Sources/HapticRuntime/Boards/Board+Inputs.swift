import ActuatorHAL
import FoundationEssentials

/// The board's inputs as its file configures them (`inputs:`), checked.
public struct BoardInputConfiguration: Sendable {
    public struct Button: Sendable, Hashable {
        public var name: String
        public var line: GPIOLineSpecifier
        public var settings: InputLineSettings
        /// The key code a press is on the uinput device, if any.
        public var key: UInt16?
    }

    public struct Encoder: Sendable, Hashable {
        public var name: String
        public var a: GPIOLineSpecifier
        public var b: GPIOLineSpecifier
        /// Bias and active level; encoders are never debounced (bounce cancels out in decoding).
        public var settings: InputLineSettings
        public var transitionsPerDetent: Int
        /// The relative axis steps move on the uinput device, if any.
        public var axis: UInt16?
    }

    /// Keys of an input device used as buttons, by input name.
    public struct EvdevKeys: Sendable, Hashable {
        public var device: String
        public var keys: [String: UInt16]
    }

    public var buttons: [Button] = []
    public var encoders: [Encoder] = []
    public var evdev: EvdevKeys?
    public var bindings: [InputBinding] = []
    /// The content library named patterns come from.
    public var library: URL?

    /// Whether the board has no inputs at all.
    public var isEmpty: Bool { buttons.isEmpty && encoders.isEmpty && evdev == nil }
}

extension Board {
    /// The board's buttons, encoders, evdev keys and bindings (all empty without `inputs:`).
    public var inputs: BoardInputConfiguration {
        guard let section = file.description.inputs else { return BoardInputConfiguration() }
        var configuration = BoardInputConfiguration()
        func settings(_ description: InputLineDescription, debounce: Bool) -> InputLineSettings {
            InputLineSettings(
                bias: description.bias.flatMap(LineBias.init(rawValue:)) ?? .asIs, activeLow: description.active == "low",
                debounce: debounce ? .microseconds(Int64(((description.debounceMs ?? 0) * 1_000).rounded())) : .zero
            )
        }
        // The file checked: every line parses, every encoder has two.
        configuration.buttons = section.buttons.compactMap { button in
            guard let line = try? GPIOLineSpecifier(parsing: button.line) else { return nil }
            return .init(name: button.name, line: line, settings: settings(button.settings, debounce: true), key: button.key.flatMap(InputCode.key))
        }
        configuration.encoders = section.encoders.compactMap { encoder in
            guard encoder.lines.count == 2, let a = try? GPIOLineSpecifier(parsing: encoder.lines[0]), let b = try? GPIOLineSpecifier(parsing: encoder.lines[1]) else { return nil }
            return .init(name: encoder.name, a: a, b: b, settings: settings(encoder.settings, debounce: false),
                         transitionsPerDetent: encoder.stepsPerDetent ?? 4, axis: encoder.axis.flatMap(InputCode.relativeAxis))
        }
        configuration.evdev = section.evdev.map { evdev in
            .init(device: evdev.device, keys: evdev.keys.compactMapValues(InputCode.key))
        }
        configuration.library = section.library.map { BoardRules(file: file).libraryFolder($0) }
        configuration.bindings = section.bindings.compactMap { binding in
            guard let content = Self.content(binding.content) else { return nil }
            let trigger: InputTrigger
            switch binding.on {
            case "press": trigger = .press
            case "release": trigger = .release
            case "hold": trigger = .hold(after: .milliseconds(binding.afterMs ?? 0), repeatEvery: binding.repeatMs.map { .milliseconds($0) })
            case "while-held": trigger = .whileHeld(tail: binding.tail.flatMap { Self.content($0.content) })
            default: trigger = .step(direction: binding.direction)
            }
            return InputBinding(
                input: binding.input, trigger: trigger, content: content, actuators: binding.actuators, priority: binding.priority ?? 0,
                retrigger: binding.retrigger.flatMap(RetriggerMode.init(rawValue:)) ?? .restart,
                maximumHold: binding.maxHoldMs.map { .milliseconds($0) } ?? InputBinding.defaultMaximumHold
            )
        }
        return configuration
    }

    private static func content(_ description: BindingContentDescription) -> InputContent? {
        if let effect = description.effect { return .effect(effect) }
        if let name = description.feedback, let feedback = Note.HapticFeedback(name: name) { return .feedback(feedback, intensity: description.intensity ?? 1) }
        if let event = description.event { return .event(event) }
        if let pattern = description.pattern { return .library(pattern) }
        if let notation = description.notation, let content = try? ContentLoader.parse(notation, format: .notation, file: "notation") {
            return .notation(source: notation, content.pattern)
        }
        return nil
    }
}
