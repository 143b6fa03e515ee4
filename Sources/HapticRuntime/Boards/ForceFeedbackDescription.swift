/// The board as a force-feedback device (`force-feedback:`): the identity SDL's and Steam's
/// controller databases match (name, bus type, vendor, product, version), how many effects it
/// holds, and which actuators are the strong and the weak motor.
struct ForceFeedbackDescription: Decodable, Sendable, Hashable {
    var name: String?
    /// `usb`, `bluetooth`, `virtual` (default), `host`, or a number (`BUS_*` in linux/input.h).
    var busType: String?
    var vendor: Int?
    var product: Int?
    var version: Int?
    /// `ff_effects_max`, 1…96 (default 16).
    var effectsMax: Int?
    /// The strong (left) and weak (right) actuators; default: the first two in board order.
    var strong: String?
    var weak: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, vendor, product, version, strong, weak
        case busType = "bus-type"
        case effectsMax = "effects-max"
    }

    /// Bus types by name (`BUS_USB`, `BUS_BLUETOOTH`, `BUS_VIRTUAL`, `BUS_HOST`).
    static let busTypes: [String: UInt16] = ["usb": 0x03, "bluetooth": 0x05, "virtual": 0x06, "host": 0x19]

    init(from decoder: any Decoder) throws {
        decoder.reportUnknownKeys(CodingKeys.self)
        let problems = decoder.boardProblems
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = container.optional(String.self, .name, problems: problems)
        // A bus type may be written as a name or as the kernel's number.
        busType = container.optional(Int.self, .busType, problems: BoardDecodingProblems()).map { String($0) }
            ?? container.optional(String.self, .busType, problems: problems)
        vendor = container.optional(Int.self, .vendor, problems: problems)
        product = container.optional(Int.self, .product, problems: problems)
        version = container.optional(Int.self, .version, problems: problems)
        effectsMax = container.optional(Int.self, .effectsMax, problems: problems)
        strong = container.optional(String.self, .strong, problems: problems)
        weak = container.optional(String.self, .weak, problems: problems)
    }
}

/// The input device of an `evdev-ff` actuator (keys inside the actuator): a node or a device name.
struct EvdevForceFeedbackDescription: Decodable, Sendable, Hashable {
    /// `/dev/input/by-id/…-event-joystick`, `/dev/input/event5`, or `sim`.
    var device: String?
    /// The name the device reports (`EVIOCGNAME`), when no node is given.
    var deviceName: String?
    /// Most effect updates per second (default 100).
    var updateRateHz: Double?
    /// The device gain to set, 0…1.
    var gain: Double?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case device, gain
        case deviceName = "device-name"
        case updateRateHz = "update-rate-hz"
    }

    /// Reads the keys from the actuator's mapping; the caller checks for unknown keys.
    init(from decoder: any Decoder) throws {
        let problems = decoder.boardProblems
        let container = try decoder.container(keyedBy: CodingKeys.self)
        device = container.optional(String.self, .device, problems: problems)
        deviceName = container.optional(String.self, .deviceName, problems: problems)
        updateRateHz = container.optional(Double.self, .updateRateHz, problems: problems)
        gain = container.optional(Double.self, .gain, problems: problems)
    }
}
