/// The board's inputs (`inputs:`): buttons and encoders on GPIO lines, an optional evdev key
/// source, and the bindings that turn them into haptics.
struct InputsDescription: Decodable, Sendable, Hashable {
    var buttons: [ButtonDescription]
    var encoders: [EncoderDescription]
    var evdev: EvdevKeysDescription?
    /// The content library folder named patterns come from, relative to the board file.
    var library: String?
    var bindings: [BindingDescription]

    enum CodingKeys: String, CodingKey, CaseIterable {
        case buttons, encoders, evdev, library, bindings
    }

    init(from decoder: any Decoder) throws {
        decoder.reportUnknownKeys(CodingKeys.self)
        let problems = decoder.boardProblems
        let container = try decoder.container(keyedBy: CodingKeys.self)
        buttons = container.optional([ButtonDescription].self, .buttons, problems: problems) ?? []
        encoders = container.optional([EncoderDescription].self, .encoders, problems: problems) ?? []
        evdev = container.optional(EvdevKeysDescription.self, .evdev, problems: problems)
        library = container.optional(String.self, .library, problems: problems)
        bindings = container.optional([BindingDescription].self, .bindings, problems: problems) ?? []
    }
}

/// The keys a GPIO input line shares with every other (`active`, `bias`, `debounce-ms`).
struct InputLineDescription: Sendable, Hashable {
    /// `high` (default) or `low`: the level that means pressed.
    var active: String?
    /// `as-is` (default), `disabled`, `pull-up`, `pull-down`.
    var bias: String?
    /// Debounce in milliseconds: in the kernel where it can (libgpiod 2), in software otherwise.
    var debounceMs: Double?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case active, bias
        case debounceMs = "debounce-ms"
    }

    init(from decoder: any Decoder) throws {
        let problems = decoder.boardProblems
        let container = try decoder.container(keyedBy: CodingKeys.self)
        active = container.optional(String.self, .active, problems: problems)
        bias = container.optional(String.self, .bias, problems: problems)
        debounceMs = container.optional(Double.self, .debounceMs, problems: problems)
    }
}

/// A button on one GPIO line.
struct ButtonDescription: Decodable, Sendable, Hashable {
    var name: String
    /// A line name (`GPIO17`) or chip + offset (`gpiochip0:17`), as `enable-gpios`.
    var line: String
    var settings: InputLineDescription
    /// The key the press is on the uinput device: `BTN_SOUTH`, `KEY_ENTER`, or a number.
    var key: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, line, key
    }

    init(from decoder: any Decoder) throws {
        decoder.reportUnknownKeys(CodingKeys.self, InputLineDescription.CodingKeys.self)
        let problems = decoder.boardProblems
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = container.required(String.self, .name, or: "", problems: problems)
        line = container.required(String.self, .line, or: "", problems: problems)
        key = container.optional(String.self, .key, problems: problems)
        settings = try InputLineDescription(from: decoder)
    }
}

/// A quadrature rotary encoder on two GPIO lines.
struct EncoderDescription: Decodable, Sendable, Hashable {
    var name: String
    /// A then B.
    var lines: [String]
    var settings: InputLineDescription
    /// Gray-code transitions per detent: 4 (default), 2 or 1.
    var stepsPerDetent: Int?
    /// The relative axis steps are on the uinput device: `REL_WHEEL`, `REL_DIAL`, or a number.
    var axis: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, lines, axis
        case stepsPerDetent = "steps-per-detent"
    }

    init(from decoder: any Decoder) throws {
        decoder.reportUnknownKeys(CodingKeys.self, InputLineDescription.CodingKeys.self)
        let problems = decoder.boardProblems
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = container.required(String.self, .name, or: "", problems: problems)
        lines = container.required([String].self, .lines, or: [], problems: problems)
        stepsPerDetent = container.optional(Int.self, .stepsPerDetent, problems: problems)
        axis = container.optional(String.self, .axis, problems: problems)
        settings = try InputLineDescription(from: decoder)
    }
}

/// Keys of an input device (a USB keypad or keyboard) as inputs: `keys` maps an input name to a
/// key code (`KEY_ENTER`, or a number).
struct EvdevKeysDescription: Decodable, Sendable, Hashable {
    /// `/dev/input/by-id/…-event-kbd`, `/dev/input/event3`.
    var device: String
    var keys: [String: String]

    enum CodingKeys: String, CodingKey, CaseIterable {
        case device, keys
    }

    init(from decoder: any Decoder) throws {
        decoder.reportUnknownKeys(CodingKeys.self)
        let problems = decoder.boardProblems
        let container = try decoder.container(keyedBy: CodingKeys.self)
        device = container.required(String.self, .device, or: "", problems: problems)
        keys = container.required([String: String].self, .keys, or: [:], problems: problems)
    }
}

/// What a binding plays: exactly one of the keys.
struct BindingContentDescription: Decodable, Sendable, Hashable {
    var effect: Int?
    /// `impact/light`, `notification/success`, `selection`.
    var feedback: String?
    var intensity: Double?
    /// A named event of the feedback theme.
    var event: String?
    /// A pattern of the content library.
    var pattern: String?
    /// Haptic Notation.
    var notation: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case effect, feedback, intensity, event, pattern, notation
    }

    init(from decoder: any Decoder) throws {
        let problems = decoder.boardProblems
        let container = try decoder.container(keyedBy: CodingKeys.self)
        effect = container.optional(Int.self, .effect, problems: problems)
        feedback = container.optional(String.self, .feedback, problems: problems)
        intensity = container.optional(Double.self, .intensity, problems: problems)
        event = container.optional(String.self, .event, problems: problems)
        pattern = container.optional(String.self, .pattern, problems: problems)
        notation = container.optional(String.self, .notation, problems: problems)
    }

    /// The content keys given (one is right).
    var given: [String] {
        [("effect", effect != nil), ("feedback", feedback != nil), ("event", event != nil), ("pattern", pattern != nil), ("notation", notation != nil)]
            .filter(\.1).map(\.0)
    }
}

/// The tail of a held binding: content keys only.
struct TailDescription: Decodable, Sendable, Hashable {
    var content: BindingContentDescription

    init(from decoder: any Decoder) throws {
        decoder.reportUnknownKeys(BindingContentDescription.CodingKeys.self)
        content = try BindingContentDescription(from: decoder)
    }
}

/// One binding: `input`, `on` (press, release, hold, while-held, step), the content, and where.
struct BindingDescription: Decodable, Sendable, Hashable {
    var input: String
    var on: String
    var content: BindingContentDescription
    var afterMs: Double?
    var repeatMs: Double?
    /// For `step`: +1 or −1 (default: both).
    var direction: Int?
    var tail: TailDescription?
    var actuators: [String]?
    var priority: Int?
    /// `restart` (default) or `layer`.
    var retrigger: String?
    var maxHoldMs: Double?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case input, on, direction, tail, actuators, priority, retrigger
        case afterMs = "after-ms"
        case repeatMs = "repeat-ms"
        case maxHoldMs = "max-hold-ms"
    }

    init(from decoder: any Decoder) throws {
        decoder.reportUnknownKeys(CodingKeys.self, BindingContentDescription.CodingKeys.self)
        let problems = decoder.boardProblems
        let container = try decoder.container(keyedBy: CodingKeys.self)
        input = container.required(String.self, .input, or: "", problems: problems)
        on = container.required(String.self, .on, or: "", problems: problems)
        afterMs = container.optional(Double.self, .afterMs, problems: problems)
        repeatMs = container.optional(Double.self, .repeatMs, problems: problems)
        direction = container.optional(Int.self, .direction, problems: problems)
        tail = container.optional(TailDescription.self, .tail, problems: problems)
        actuators = container.optional([String].self, .actuators, problems: problems)
        priority = container.optional(Int.self, .priority, problems: problems)
        retrigger = container.optional(String.self, .retrigger, problems: problems)
        maxHoldMs = container.optional(Double.self, .maxHoldMs, problems: problems)
        content = try BindingContentDescription(from: decoder)
    }
}
