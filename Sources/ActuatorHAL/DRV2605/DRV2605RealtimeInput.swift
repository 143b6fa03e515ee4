/// CONTROL2.BIDIR_INPUT: how the engine reads RTP_INPUT (and PWM, ROM) data.
public enum DRV2605InputDirection: String, Sendable, Hashable, Codable, CaseIterable {
    /// Mid-scale is zero drive (the reset value). Open loop: below mid-scale drives in reverse
    /// (brakes); closed loop: below mid-scale is zero drive, braking is automatic.
    case bidirectional
    /// Zero is zero drive and the whole range drives forward, one more bit of resolution. The
    /// datasheet allows it in closed loop only.
    case unidirectional
}

/// RTP_INPUT (0x02) as the chip reads it, and the one place amplitude becomes an RTP byte.
///
/// The datasheet's "Data Formats for Waveform Playback" (DRV2605L SLOS854D, figures for open
/// loop, closed loop unidirectional and closed loop bidirectional; CONTROL2.BIDIR_INPUT):
///
/// | loop, BIDIR_INPUT | signed (DATA_FORMAT_RTP = 0) | unsigned (DATA_FORMAT_RTP = 1) |
/// |---|---|---|
/// | open (bidirectional) | 0x81 −full, 0x00 zero, 0x7F +full | 0x00 −full, 0x80 zero, 0xFF +full |
/// | closed, bidirectional | ≤ 0x00 zero, 0x7F full | ≤ 0x80 zero, 0xFF full |
/// | closed, unidirectional | 0x00 zero, 0x7F full (negative: zero) | 0x00 zero, 0xFF full |
///
/// Full scale is OD_CLAMP in open loop and RATED_VOLTAGE in closed loop. Amplitude 1 is the
/// actuator's *rated* drive: in closed loop that is full scale; in open loop, where full scale is
/// the overdrive clamp, it is `ratedSteps` of the format's steps, so sustained drive never exceeds
/// the rated voltage (overdrive stays for the chip's ROM waveforms' kick and brake).
public struct DRV2605RealtimeInput: Sendable, Hashable {
    /// DATA_FORMAT_RTP.
    public var format: DRV2605RealtimeFormat
    /// BIDIR_INPUT.
    public var direction: DRV2605InputDirection
    /// Open loop reads negative values as reverse drive; closed loop as zero.
    public var loop: DRV2605Loop
    /// Register steps from zero drive to the actuator's rated drive (at most `fullScaleSteps`):
    /// the grid every amplitude is quantised to, once.
    public internal(set) var ratedSteps: Int

    /// An input reading `format` with `direction` in `loop`, amplitude 1 at `ratedSteps` (at most
    /// the format's full scale, the default).
    public init(format: DRV2605RealtimeFormat, direction: DRV2605InputDirection, loop: DRV2605Loop, ratedSteps: Int? = nil) {
        self.format = format
        self.direction = direction
        self.loop = loop
        let fullScale = Self.fullScaleSteps(format: format, direction: direction)
        self.ratedSteps = min(max(ratedSteps ?? fullScale, 1), fullScale)
    }

    /// Steps from zero to full scale: 127 when mid-scale is zero (or signed), 255 for unsigned
    /// unidirectional data.
    public var fullScaleSteps: Int { Self.fullScaleSteps(format: format, direction: direction) }

    private static func fullScaleSteps(format: DRV2605RealtimeFormat, direction: DRV2605InputDirection) -> Int {
        format == .unsigned && direction == .unidirectional ? 255 : 127
    }

    /// The byte that means zero drive.
    public var silence: UInt8 { format == .unsigned && direction == .bidirectional ? 0x80 : 0x00 }

    /// Whether negative amplitudes drive (in reverse): open loop only.
    public var allowsNegative: Bool { loop == .open && direction == .bidirectional }

    /// The smallest amplitude change the chip can express (`1 / ratedSteps`).
    public var amplitudeStep: Double { 1 / Double(ratedSteps) }

    /// The RTP_INPUT byte for `amplitude` (−1…1 of rated drive; clamped, negative clamped to zero
    /// unless `allowsNegative`), rounded to the nearest step.
    /// - Throws: `DRV2605Error.invalidAmplitude` for NaN or infinity.
    public func register(amplitude: Double) throws(DRV2605Error) -> UInt8 {
        guard amplitude.isFinite else { throw .invalidAmplitude(amplitude) }
        let clamped = min(max(amplitude, allowsNegative ? -1 : 0), 1)
        let steps = Int((clamped * Double(ratedSteps)).rounded())
        switch format {
        case .signed: return UInt8(bitPattern: Int8(steps))
        case .unsigned: return UInt8(Int(silence) + steps)
        }
    }

    /// The amplitude (of rated drive) a byte stands for under this input's reading.
    public func amplitude(register value: UInt8) -> Double {
        let steps: Int
        switch format {
        case .signed: steps = Int(Int8(bitPattern: value))
        case .unsigned: steps = Int(value) - Int(silence)
        }
        let drive = allowsNegative ? max(steps, -fullScaleSteps) : max(steps, 0)
        return Double(drive) / Double(ratedSteps)
    }
}
