/// A board file (`Boards/*.yml`): which buses, multiplexers and actuators a board has and how they
/// are wired. Property names follow the Linux and Zephyr devicetree bindings where those exist
/// (`clock-frequency`, `reg`, `compatible`, `enable-gpios`, `actuator-mode`, `vib-rated-mv`,
/// `vib-overdrive-mv`, `library-sel`, `feedback-brake-factor`, `loop-gain`) so values copy across.
package struct BoardDescription: Decodable, Sendable, Hashable {
    /// The board's name (`raspberry-pi-4-drv2605l`).
    var board: String
    var description: String?
    var buses: [BusDescription]
    var muxes: [MuxDescription]
    var actuators: [ActuatorDescription]
    var power: PowerDescription?
    /// Where sound (AudioCustom, AudioContinuous, notes' `sound`) plays; nil: the board has none.
    var audio: AudioDeviceDescription?
    /// How the board appears as a force-feedback device (`hapticboard rumble`); nil: the defaults.
    var forceFeedback: ForceFeedbackDescription?
    /// Buttons, encoders, evdev keys and their bindings; nil: the board has none.
    var inputs: InputsDescription?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case board, description, buses, muxes, actuators, power, audio, inputs
        case forceFeedback = "force-feedback"
    }

    package init(from decoder: any Decoder) throws {
        decoder.reportUnknownKeys(CodingKeys.self)
        let problems = decoder.boardProblems
        let container = try decoder.container(keyedBy: CodingKeys.self)
        board = container.required(String.self, .board, or: "", problems: problems)
        description = container.optional(String.self, .description, problems: problems)
        buses = container.required([BusDescription].self, .buses, or: [], problems: problems)
        muxes = container.optional([MuxDescription].self, .muxes, problems: problems) ?? []
        actuators = container.required([ActuatorDescription].self, .actuators, or: [], problems: problems)
        power = container.optional(PowerDescription.self, .power, problems: problems)
        audio = container.optional(AudioDeviceDescription.self, .audio, problems: problems)
        forceFeedback = container.optional(ForceFeedbackDescription.self, .forceFeedback, problems: problems)
        inputs = container.optional(InputsDescription.self, .inputs, problems: problems)
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
        decoder.reportUnknownKeys(CodingKeys.self)
        let problems = decoder.boardProblems
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = container.required(String.self, .name, or: "", problems: problems)
        device = container.required(String.self, .device, or: "", problems: problems)
        clockFrequency = container.optional(Int.self, .clockFrequency, problems: problems) ?? 100_000
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
        decoder.reportUnknownKeys(CodingKeys.self)
        let problems = decoder.boardProblems
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = container.required(String.self, .name, or: "", problems: problems)
        compatible = container.required(String.self, .compatible, or: "", problems: problems)
        bus = container.required(String.self, .bus, or: "", problems: problems)
        reg = container.required(Int.self, .reg, or: 0, problems: problems)
    }
}

/// One actuator and the driver chip in front of it, or (`compatible: pcm-actuator`) the ALSA
/// device that drives it as audio.
struct ActuatorDescription: Decodable, Sendable, Hashable {
    var name: String
    /// `ti,drv2605l`, `ti,drv2605`, `ti,drv2604l`, `ti,drv2604`, or `pcm-actuator`.
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
    /// `LRA` or `ERM` (Zephyr `actuator-mode`); a PCM actuator: `LRA` or `voice-coil`.
    var actuatorMode: String
    /// `closed` (auto-resonance / back-EMF feedback) or `open`.
    var loop: String?
    /// Rated voltage in millivolts: RMS for an LRA, average for an ERM. Required for DRV260x
    /// chips; a PCM actuator's drive level is `max-amplitude` instead.
    var vibRatedMillivolts: Int?
    /// Overdrive clamp (peak) voltage in millivolts (DRV260x only, required there).
    var vibOverdriveMillivolts: Int?
    /// Resonant frequency of an LRA, in hertz.
    var resonantFrequencyHz: Double?
    /// ROM library (0–7; 6 = LRA). Defaults to the datasheet's choice for the actuator
    /// (`DRV2605LibraryChoice`): LRA library, A for an open-loop ERM, B–F for a closed-loop one.
    var librarySel: Int?
    /// RTP_INPUT's number format: `signed` (default) or `unsigned` (CONTROL3.DATA_FORMAT_RTP).
    var rtpFormat: String?
    /// `bidirectional` (default; mid-scale is zero drive) or `unidirectional` (closed loop only,
    /// twice the steps in unsigned format) (CONTROL2.BIDIR_INPUT).
    var rtpInput: String?
    /// FB_BRAKE_FACTOR index 0–7 (Zephyr `feedback-brake-factor`).
    var feedbackBrakeFactor: Int?
    /// LOOP_GAIN index 0–3 (Zephyr `loop-gain`).
    var loopGain: Int?
    /// Longest continuous drive before the runtime forces a stop, in milliseconds.
    var maxContinuousDriveMs: Int?
    /// How often the engine reads the chip's STATUS while it plays (faults stop playback), in
    /// milliseconds; 0 turns it off. Default 100.
    var statusPollMs: Int?
    /// The ALSA side of a `pcm-actuator`; nil for I2C chips.
    var pcm: PCMOutputDescription?
    /// The input device of an `evdev-ff` actuator; nil otherwise.
    var evdev: EvdevForceFeedbackDescription?

    /// The `compatible` of an actuator driven as audio.
    static let pcmCompatible = "pcm-actuator"
    /// The `compatible` of an actuator that is an existing force-feedback input device.
    static let evdevCompatible = "evdev-ff"

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, compatible, bus, mux, reg, loop
        case muxChannel = "mux-channel"
        case enableGPIOs = "enable-gpios"
        case actuatorMode = "actuator-mode"
        case vibRatedMillivolts = "vib-rated-mv"
        case vibOverdriveMillivolts = "vib-overdrive-mv"
        case resonantFrequencyHz = "resonant-frequency-hz"
        case librarySel = "library-sel"
        case rtpFormat = "rtp-format"
        case rtpInput = "rtp-input"
        case feedbackBrakeFactor = "feedback-brake-factor"
        case loopGain = "loop-gain"
        case maxContinuousDriveMs = "max-continuous-drive-ms"
        case statusPollMs = "status-poll-ms"
    }

    init(from decoder: any Decoder) throws {
        // A pcm-actuator's entry also holds its output's keys, an evdev-ff actuator's its device's.
        decoder.reportUnknownKeys(CodingKeys.self, PCMOutputDescription.CodingKeys.self, EvdevForceFeedbackDescription.CodingKeys.self)
        let problems = decoder.boardProblems
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = container.required(String.self, .name, or: "", problems: problems)
        compatible = container.required(String.self, .compatible, or: "", problems: problems)
        let isPCM = compatible == Self.pcmCompatible
        pcm = isPCM ? try PCMOutputDescription(from: decoder) : nil
        evdev = compatible == Self.evdevCompatible ? try EvdevForceFeedbackDescription(from: decoder) : nil
        // Neither is a DRV260x: no chip voltages to require.
        let hasRatings = !isPCM && evdev == nil
        bus = container.optional(String.self, .bus, problems: problems)
        mux = container.optional(String.self, .mux, problems: problems)
        muxChannel = container.optional(Int.self, .muxChannel, problems: problems)
        reg = container.optional(Int.self, .reg, problems: problems) ?? 0x5A
        enableGPIOs = container.optional(String.self, .enableGPIOs, problems: problems)
        actuatorMode = container.required(String.self, .actuatorMode, or: "", problems: problems)
        loop = container.optional(String.self, .loop, problems: problems)
        vibRatedMillivolts = hasRatings ? container.required(Int.self, .vibRatedMillivolts, or: 0, problems: problems) : container.optional(Int.self, .vibRatedMillivolts, problems: problems)
        vibOverdriveMillivolts = hasRatings ? container.required(Int.self, .vibOverdriveMillivolts, or: 0, problems: problems) : container.optional(Int.self, .vibOverdriveMillivolts, problems: problems)
        resonantFrequencyHz = container.optional(Double.self, .resonantFrequencyHz, problems: problems)
        librarySel = container.optional(Int.self, .librarySel, problems: problems)
        rtpFormat = container.optional(String.self, .rtpFormat, problems: problems)
        rtpInput = container.optional(String.self, .rtpInput, problems: problems)
        feedbackBrakeFactor = container.optional(Int.self, .feedbackBrakeFactor, problems: problems)
        loopGain = container.optional(Int.self, .loopGain, problems: problems)
        maxContinuousDriveMs = container.optional(Int.self, .maxContinuousDriveMs, problems: problems)
        statusPollMs = container.optional(Int.self, .statusPollMs, problems: problems)
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
        decoder.reportUnknownKeys(CodingKeys.self)
        let problems = decoder.boardProblems
        let container = try decoder.container(keyedBy: CodingKeys.self)
        standbyTimeoutMs = container.optional(Int.self, .standbyTimeoutMs, problems: problems)
        offTimeoutMs = container.optional(Int.self, .offTimeoutMs, problems: problems)
    }
}

/// An ALSA playback stream as a board file gives it, for a PCM actuator (keys inside the actuator)
/// or for sound (`audio:`).
struct PCMOutputDescription: Decodable, Sendable, Hashable {
    /// The ALSA device name: `hw:CARD=sndrpihifiberry,DEV=0`, `plughw:1,0`, `default`, a dshare PCM.
    var device: String
    /// Channels the device stream has.
    var channels: Int
    /// One-based channels carrying this output (`[3, 4]`: channels 3–4); nil: all of them.
    var channelMap: [Int]?
    /// Frames per second (default 48000).
    var sampleRate: Int?
    /// Frames per period (default 128, see `PCMFormat.lowLatencyPeriodFrames`).
    var periodFrames: Int?
    /// Full-scale fraction the output may reach, 0–1 (PCM actuators: required; audio: default 1).
    var maxAmplitude: Double?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case device, channels
        case channelMap = "channel-map"
        case sampleRate = "sample-rate"
        case periodFrames = "period-frames"
        case maxAmplitude = "max-amplitude"
    }

    /// Reads the keys from an actuator or `audio:` mapping; the caller checks for unknown keys.
    init(from decoder: any Decoder) throws {
        let problems = decoder.boardProblems
        let container = try decoder.container(keyedBy: CodingKeys.self)
        device = container.required(String.self, .device, or: "", problems: problems)
        channels = container.required(Int.self, .channels, or: 0, problems: problems)
        channelMap = container.optional([Int].self, .channelMap, problems: problems)
        sampleRate = container.optional(Int.self, .sampleRate, problems: problems)
        periodFrames = container.optional(Int.self, .periodFrames, problems: problems)
        maxAmplitude = container.optional(Double.self, .maxAmplitude, problems: problems)
    }
}

/// The board's sound output (`audio:`): a PCM stream with no actuator behind it.
struct AudioDeviceDescription: Decodable, Sendable, Hashable {
    var output: PCMOutputDescription

    init(from decoder: any Decoder) throws {
        decoder.reportUnknownKeys(PCMOutputDescription.CodingKeys.self)
        output = try PCMOutputDescription(from: decoder)
    }
}
