/// A board file (`Boards/*.yml`): which buses, multiplexers and actuators a board has and how they
/// are wired. Property names follow the Linux and Zephyr devicetree bindings where those exist
/// (`clock-frequency`, `reg`, `compatible`, `enable-gpios`, `actuator-mode`, `vib-rated-mv`,
/// `vib-overdrive-mv`, `library-sel`, `feedback-brake-factor`, `loop-gain`) so values copy across.
struct BoardDescription: Decodable, Sendable, Hashable {
    /// The board's name (`raspberry-pi-4-drv2605l`).
    var board: String
    var description: String?
    var buses: [BusDescription]
    var muxes: [MuxDescription]
    var actuators: [ActuatorDescription]
    var power: PowerDescription?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case board, description, buses, muxes, actuators, power
    }

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        board = try container.decode(String.self, forKey: .board)
        description = try container.decodeIfPresent(String.self, forKey: .description)
        buses = try container.decode([BusDescription].self, forKey: .buses)
        muxes = try container.decodeIfPresent([MuxDescription].self, forKey: .muxes) ?? []
        actuators = try container.decode([ActuatorDescription].self, forKey: .actuators)
        power = try container.decodeIfPresent(PowerDescription.self, forKey: .power)
    }
}

/// An I2C bus: a Linux i2c-dev node, or `sim` for the simulated bus.
struct BusDescription: Decodable, Sendable, Hashable {
    var name: String
    /// `/dev/i2c-1`, or `sim`.
    var device: String
    /// SCL frequency in hertz (devicetree `clock-frequency`); the DRV2605 allows up to 400 kHz.
    var clockFrequency: Int

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, device
        case clockFrequency = "clock-frequency"
    }

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        device = try container.decode(String.self, forKey: .device)
        clockFrequency = try container.decodeIfPresent(Int.self, forKey: .clockFrequency) ?? 100_000
    }
}

/// A TCA9548A I2C multiplexer on a bus.
struct MuxDescription: Decodable, Sendable, Hashable {
    var name: String
    /// `ti,tca9548a`.
    var compatible: String
    /// The bus the multiplexer sits on.
    var bus: String
    /// Its address, 0x70–0x77.
    var reg: Int

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, compatible, bus, reg
    }

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        compatible = try container.decode(String.self, forKey: .compatible)
        bus = try container.decode(String.self, forKey: .bus)
        reg = try container.decode(Int.self, forKey: .reg)
    }
}

/// One actuator and the driver chip in front of it.
struct ActuatorDescription: Decodable, Sendable, Hashable {
    var name: String
    /// `ti,drv2605l`, `ti,drv2605`, `ti,drv2604l`, `ti,drv2604`.
    var compatible: String
    /// The bus the driver chip is on; omit when it sits behind `mux`.
    var bus: String?
    /// The multiplexer in front of the chip, and which of its channels.
    var mux: String?
    var muxChannel: Int?
    /// The chip's address (the DRV2605 is fixed at 0x5A).
    var reg: Int
    /// The EN line: a line name such as `GPIO17`, or `gpiochip0:17` (chip + offset).
    var enableGPIOs: String?
    /// `LRA` or `ERM` (Zephyr `actuator-mode`).
    var actuatorMode: String
    /// `closed` (auto-resonance / back-EMF feedback) or `open`.
    var loop: String?
    /// Rated voltage in millivolts: RMS for an LRA, average for an ERM.
    var vibRatedMillivolts: Int
    /// Overdrive clamp (peak) voltage in millivolts.
    var vibOverdriveMillivolts: Int
    /// Resonant frequency of an LRA, in hertz.
    var resonantFrequencyHz: Double?
    /// ROM library (0–7; 6 = LRA). Defaults by actuator mode.
    var librarySel: Int?
    /// FB_BRAKE_FACTOR index 0–7 (Zephyr `feedback-brake-factor`).
    var feedbackBrakeFactor: Int?
    /// LOOP_GAIN index 0–3 (Zephyr `loop-gain`).
    var loopGain: Int?
    /// Longest continuous drive before the runtime forces a stop, in milliseconds.
    var maxContinuousDriveMs: Int?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, compatible, bus, mux, reg, loop
        case muxChannel = "mux-channel"
        case enableGPIOs = "enable-gpios"
        case actuatorMode = "actuator-mode"
        case vibRatedMillivolts = "vib-rated-mv"
        case vibOverdriveMillivolts = "vib-overdrive-mv"
        case resonantFrequencyHz = "resonant-frequency-hz"
        case librarySel = "library-sel"
        case feedbackBrakeFactor = "feedback-brake-factor"
        case loopGain = "loop-gain"
        case maxContinuousDriveMs = "max-continuous-drive-ms"
    }

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        compatible = try container.decode(String.self, forKey: .compatible)
        bus = try container.decodeIfPresent(String.self, forKey: .bus)
        mux = try container.decodeIfPresent(String.self, forKey: .mux)
        muxChannel = try container.decodeIfPresent(Int.self, forKey: .muxChannel)
        reg = try container.decodeIfPresent(Int.self, forKey: .reg) ?? 0x5A
        enableGPIOs = try container.decodeIfPresent(String.self, forKey: .enableGPIOs)
        actuatorMode = try container.decode(String.self, forKey: .actuatorMode)
        loop = try container.decodeIfPresent(String.self, forKey: .loop)
        vibRatedMillivolts = try container.decode(Int.self, forKey: .vibRatedMillivolts)
        vibOverdriveMillivolts = try container.decode(Int.self, forKey: .vibOverdriveMillivolts)
        resonantFrequencyHz = try container.decodeIfPresent(Double.self, forKey: .resonantFrequencyHz)
        librarySel = try container.decodeIfPresent(Int.self, forKey: .librarySel)
        feedbackBrakeFactor = try container.decodeIfPresent(Int.self, forKey: .feedbackBrakeFactor)
        loopGain = try container.decodeIfPresent(Int.self, forKey: .loopGain)
        maxContinuousDriveMs = try container.decodeIfPresent(Int.self, forKey: .maxContinuousDriveMs)
    }
}

/// When the runtime powers actuators down on its own.
struct PowerDescription: Decodable, Sendable, Hashable {
    /// Idle time after which a ready actuator returns to standby.
    var standbyTimeoutMs: Int?
    /// Idle time after which the actuator is switched off (EN low).
    var offTimeoutMs: Int?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case standbyTimeoutMs = "standby-timeout-ms"
        case offTimeoutMs = "off-timeout-ms"
    }

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        standbyTimeoutMs = try container.decodeIfPresent(Int.self, forKey: .standbyTimeoutMs)
        offTimeoutMs = try container.decodeIfPresent(Int.self, forKey: .offTimeoutMs)
    }
}
