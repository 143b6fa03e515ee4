/// CONTROL2.SAMPLE_TIME: how long the chip samples back-EMF; enters the LRA RATED_VOLTAGE formula.
public enum DRV2605SampleTime: UInt8, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case microseconds150 = 0
    case microseconds200 = 1
    case microseconds250 = 2
    /// The reset value.
    case microseconds300 = 3

    /// The sample time in seconds.
    public var seconds: Double { Double(150 + 50 * Int(rawValue)) * 1e-6 }

    public var description: String { "\(150 + 50 * Int(rawValue)) µs" }
}

/// CONTROL4.AUTO_CAL_TIME: how long auto-calibration runs (TI datasheet, CONTROL4).
public enum DRV2605AutoCalibrationTime: UInt8, Sendable, Hashable, Codable, CaseIterable {
    case milliseconds150to350 = 0
    case milliseconds250to450 = 1
    /// The reset value.
    case milliseconds500to700 = 2
    case milliseconds1000to1200 = 3

    /// The longest calibration the datasheet gives for this setting.
    public var longest: Duration {
        switch self {
        case .milliseconds150to350: .milliseconds(350)
        case .milliseconds250to450: .milliseconds(450)
        case .milliseconds500to700: .milliseconds(700)
        case .milliseconds1000to1200: .milliseconds(1200)
        }
    }

    /// How long the driver waits for GO to clear before calling calibration hung: the longest
    /// datasheet time plus half again, so a slow part is not mistaken for a dead one.
    public var timeout: Duration { longest * 3 / 2 }
}

/// RTP_INPUT's number format (CONTROL3.DATA_FORMAT_RTP).
public enum DRV2605RealtimeFormat: String, Sendable, Hashable, Codable, CaseIterable {
    /// Two's complement: 0x7F full scale, 0x81 full negative (open loop: antiphase braking).
    case signed
    /// 0x00–0xFF; in open loop 0x80 is zero drive.
    case unsigned
}

/// Everything the driver writes to configure a chip for one actuator; `DRV2605RegisterValues`
/// turns it into register bytes.
public struct DRV2605Configuration: Sendable, Hashable, Codable {
    /// The actuator's electrical ratings.
    public var ratings: DRV2605Ratings
    /// The ROM library; `nil` picks the datasheet's choice for the actuator
    /// (`DRV2605LibraryChoice.defaultLibrary`), and nothing on a DRV2604 (no ROM).
    public var library: ROMLibrary?
    /// FB_BRAKE_FACTOR index 0–7 (1x, 2x, 3x, 4x, 6x, 8x, 16x, braking off); reset value 3.
    public var brakeFactor: UInt8
    /// LOOP_GAIN index 0–3 (low … very high); reset value 1.
    public var loopGain: UInt8
    /// Back-EMF sample time; enters the LRA RATED_VOLTAGE formula.
    public var sampleTime: DRV2605SampleTime
    /// How long auto-calibration runs, and so how long the driver waits for it.
    public var autoCalibrationTime: DRV2605AutoCalibrationTime
    /// RTP_INPUT's number format.
    public var realtimeFormat: DRV2605RealtimeFormat
    /// CONTROL2.BIDIR_INPUT; unidirectional only in closed loop.
    public var inputDirection: DRV2605InputDirection

    /// A configuration with the chip's reset values for everything the ratings do not decide.
    public init(
        ratings: DRV2605Ratings,
        library: ROMLibrary? = nil,
        brakeFactor: UInt8 = 3,
        loopGain: UInt8 = 1,
        sampleTime: DRV2605SampleTime = .microseconds300,
        autoCalibrationTime: DRV2605AutoCalibrationTime = .milliseconds500to700,
        realtimeFormat: DRV2605RealtimeFormat = .signed,
        inputDirection: DRV2605InputDirection = .bidirectional
    ) {
        self.ratings = ratings
        self.library = library
        self.brakeFactor = brakeFactor
        self.loopGain = loopGain
        self.sampleTime = sampleTime
        self.autoCalibrationTime = autoCalibrationTime
        self.realtimeFormat = realtimeFormat
        self.inputDirection = inputDirection
    }

    /// How the chip reads RTP_INPUT with this configuration, at full-scale steps (the rated share
    /// in open loop is `DRV2605RegisterValues.realtimeInput`'s): enough to know its silence.
    public var realtimeInputReading: DRV2605RealtimeInput {
        DRV2605RealtimeInput(format: realtimeFormat, direction: inputDirection, loop: ratings.loop)
    }

    /// The library to select on `variant`: the configured one, else the datasheet's choice for the
    /// actuator (`DRV2605LibraryChoice.defaultLibrary`); nothing on a part without ROM.
    public func effectiveLibrary(on variant: DRV2605Variant) -> ROMLibrary? {
        guard variant.hasROMLibrary else { return nil }
        return library ?? DRV2605LibraryChoice.defaultLibrary(for: ratings, on: variant)
    }
}
