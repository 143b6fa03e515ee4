/// Whether the chip closes the loop around the actuator's back-EMF.
public enum DRV2605Loop: String, Sendable, Hashable, Codable, CaseIterable {
    /// Back-EMF feedback: auto-resonance for an LRA, speed control for an ERM.
    case closed
    /// Fixed drive: OL_LRA_PERIOD sets an LRA's frequency; OD_CLAMP is full scale.
    case open
}

/// An actuator's electrical ratings, as its datasheet (or a board file) gives them.
public struct DRV2605Ratings: Sendable, Hashable, Codable {
    /// `.lra` or `.erm`; a voice coil is not driven by a DRV2605.
    public var kind: ActuatorKind
    public var loop: DRV2605Loop
    /// Rated voltage in volts: RMS for an LRA, average for an ERM.
    public var ratedVoltage: Double
    /// Overdrive (clamp) voltage in volts, peak.
    public var overdriveVoltage: Double
    /// Resonant frequency in hertz; required for an LRA.
    public var resonantFrequency: Double?

    public init(kind: ActuatorKind, loop: DRV2605Loop, ratedVoltage: Double, overdriveVoltage: Double, resonantFrequency: Double? = nil) {
        self.kind = kind
        self.loop = loop
        self.ratedVoltage = ratedVoltage
        self.overdriveVoltage = overdriveVoltage
        self.resonantFrequency = resonantFrequency
    }
}

/// Why ratings cannot become register values.
public enum DRV2605RatingsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The DRV2605 drives LRAs and ERMs only.
    case unsupportedKind(ActuatorKind)
    /// A voltage that is zero, negative or not a number.
    case invalidVoltage(name: String, Double)
    /// An LRA needs its resonant frequency (DRIVE_TIME, OL_LRA_PERIOD, the RATED_VOLTAGE formula).
    case missingResonantFrequency
    /// A frequency that is zero, negative or not a number.
    case invalidResonantFrequency(Double)
    /// `1 − (4·t_sample + 300 µs)·f` is not positive: the closed-loop formula has no solution,
    /// the chip cannot sample back-EMF fast enough for this frequency at this SAMPLE_TIME.
    case frequencyTooHighForSampleTime(frequency: Double, sampleTime: DRV2605SampleTime)
    /// A register field value beyond its width (e.g. LOOP_GAIN 5).
    case fieldOutOfRange(field: String, value: UInt8, maximum: UInt8)
    /// The overdrive (peak) voltage is below the rated voltage: the clamp would cut rated drive.
    case overdriveBelowRated(overdrive: Double, rated: Double)
    /// BIDIR_INPUT = 0 in open loop: the datasheet allows unidirectional input in closed loop only.
    case unidirectionalInputInOpenLoop
    /// A library the datasheet allows in open loop only (library A) with a closed-loop actuator.
    case libraryNeedsOpenLoop(ROMLibrary)

    public var description: String {
        switch self {
        case .unsupportedKind(let kind):
            return "a DRV2605 drives LRA or ERM actuators, not \(kind.rawValue)"
        case .invalidVoltage(let name, let value):
            return "\(name) must be a positive number of volts, not \(value)"
        case .missingResonantFrequency:
            return "an LRA needs its resonant frequency"
        case .invalidResonantFrequency(let value):
            return "resonant frequency must be a positive number of hertz, not \(value)"
        case .frequencyTooHighForSampleTime(let frequency, let sampleTime):
            return "\(frequency) Hz is too high for closed-loop drive with SAMPLE_TIME \(sampleTime) (1 − (4·t + 300 µs)·f ≤ 0)"
        case .fieldOutOfRange(let field, let value, let maximum):
            return "\(field) is \(value), but the field holds 0–\(maximum)"
        case .overdriveBelowRated(let overdrive, let rated):
            return "overdrive voltage \(overdrive) V is below the rated voltage \(rated) V: OD_CLAMP bounds every drive, so rated drive would be cut (DRV2605L datasheet, overdrive voltage-clamp programming)"
        case .unidirectionalInputInOpenLoop:
            return "unidirectional input (BIDIR_INPUT = 0) is for closed loop only (DRV2605L datasheet, CONTROL2); use bidirectional input in open loop"
        case .libraryNeedsOpenLoop(let library):
            return "ROM library \(library) has its overdrive built into the waveforms and is for open loop only (DRV2605L datasheet, waveform library selection); use libraries B–F in closed loop, or loop: open"
        }
    }
}
