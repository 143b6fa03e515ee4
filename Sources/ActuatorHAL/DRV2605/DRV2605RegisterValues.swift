/// One register write of a configuration.
public struct DRV2605RegisterWrite: Sendable, Hashable, CustomStringConvertible {
    public var register: DRV2605Register
    public var value: UInt8

    public init(_ register: DRV2605Register, _ value: UInt8) {
        self.register = register
        self.value = value
    }

    public var description: String { "\(register.datasheetName) ← \(hexByte(value))" }
}

/// The configuration registers for one actuator on one chip: the single place where ratings
/// become register bytes.
public struct DRV2605RegisterValues: Sendable, Hashable {
    public var feedbackControl: UInt8
    public var ratedVoltage: UInt8
    public var overdriveClamp: UInt8
    public var control4: UInt8
    public var control1: UInt8
    public var control2: UInt8
    public var control3: UInt8
    /// OL_LRA_PERIOD; only written for an LRA on a part that has the register.
    public var openLoopPeriod: UInt8?
    /// LIBRARY_SEL; not written on a chip without ROM.
    public var librarySelect: UInt8?
    /// A stored calibration to restore (A_CAL_COMP, A_CAL_BEMF; BEMF_GAIN is in `feedbackControl`).
    public var calibration: DRV2605CalibrationResult?
    /// How RTP_INPUT is read with these registers, amplitude 1 at the rated voltage.
    public var realtimeInput: DRV2605RealtimeInput

    /// Computes every configuration register for `configuration` on `variant`, with `calibration`
    /// (if given) folded in.
    public init(configuration: DRV2605Configuration, variant: DRV2605Variant, calibration: DRV2605CalibrationResult? = nil) throws(DRV2605Error) {
        let ratings = configuration.ratings
        do throws(DRV2605RatingsError) {
            try Self.check(configuration.brakeFactor, DRV2605Field.brakeFactor)
            try Self.check(configuration.loopGain, DRV2605Field.loopGain)
            if let calibration { try Self.check(calibration.backEMFGain, DRV2605Field.backEMFGain) }
            overdriveClamp = try DRV2605OverdriveClamp.register(peakVolts: ratings.overdriveVoltage)
            guard ratings.overdriveVoltage >= ratings.ratedVoltage else {
                throw .overdriveBelowRated(overdrive: ratings.overdriveVoltage, rated: ratings.ratedVoltage)
            }
            if ratings.loop == .open, configuration.inputDirection == .unidirectional { throw .unidirectionalInputInOpenLoop }
            if let library = configuration.library, !DRV2605LibraryChoice.allows(library, in: ratings.loop) {
                throw .libraryNeedsOpenLoop(library)
            }
            switch ratings.kind {
            case .lra:
                guard let frequency = ratings.resonantFrequency else { throw .missingResonantFrequency }
                ratedVoltage = try DRV2605RatedVoltage.lraRegister(rmsVolts: ratings.ratedVoltage, frequency: frequency, sampleTime: configuration.sampleTime)
                control1 = DRV2605Field.startupBoost.encode(1) | DRV2605Field.driveTime.encode(try DRV2605DriveTime.lraRegister(frequency: frequency))
                let period = try DRV2605OpenLoopPeriod.register(frequency: frequency)
                openLoopPeriod = variant.hasOpenLoopPeriodRegister ? period : nil
            case .erm:
                ratedVoltage = try DRV2605RatedVoltage.ermRegister(averageVolts: ratings.ratedVoltage)
                control1 = DRV2605Field.startupBoost.encode(1) | DRV2605Field.driveTime.encode(DRV2605DriveTime.ermDefault)
                openLoopPeriod = nil
            case .voiceCoil:
                throw .unsupportedKind(ratings.kind)
            }
        } catch {
            throw .invalidRatings(error)
        }

        let isLRA = ratings.kind == .lra
        let isOpenLoop = ratings.loop == .open
        feedbackControl = DRV2605Field.actuatorIsLRA.encode(isLRA ? 1 : 0)
            | DRV2605Field.brakeFactor.encode(configuration.brakeFactor)
            | DRV2605Field.loopGain.encode(configuration.loopGain)
            | DRV2605Field.backEMFGain.encode(calibration?.backEMFGain ?? Self.defaultBackEMFGain)
        // BRAKE_STABILIZER, BLANKING_TIME and IDISS_TIME keep their reset values.
        control2 = DRV2605Field.bidirectionalInput.encode(configuration.inputDirection == .bidirectional ? 1 : 0)
            | DRV2605Field.brakeStabilizer.encode(1)
            | DRV2605Field.sampleTime.encode(configuration.sampleTime.rawValue)
            | DRV2605Field.blankingTime.encode(1)
            | DRV2605Field.currentDissipationTime.encode(1)
        control3 = DRV2605Field.noiseGateThreshold.encode(Self.defaultNoiseGate)
            | DRV2605Field.ermOpenLoop.encode(!isLRA && isOpenLoop ? 1 : 0)
            | DRV2605Field.realtimeDataUnsigned.encode(configuration.realtimeFormat == .unsigned ? 1 : 0)
            | DRV2605Field.lraOpenLoop.encode(isLRA && isOpenLoop ? 1 : 0)
        // OTP_PROGRAM stays 0: programming the one-time memory is never done from here.
        control4 = DRV2605Field.autoCalibrationTime.encode(configuration.autoCalibrationTime.rawValue)

        if let library = configuration.effectiveLibrary(on: variant) {
            guard variant.supports(library) else {
                throw .unsupported(variant: variant, "select ROM library \(library) (\(variant.hasROMLibrary ? "library F is DRV2605L only" : "it has RAM, not ROM"))")
            }
            librarySelect = DRV2605Field.library.encode(library.rawValue)
        } else {
            librarySelect = nil
        }
        self.calibration = calibration
        realtimeInput = Self.realtimeInput(configuration, overdriveClamp: overdriveClamp)
    }

    /// RTP as these registers make the chip read it. Closed loop: amplitude 1 is full scale, the
    /// rated voltage. Open loop: full scale is the overdrive clamp (Equations 4 and 5), so amplitude 1
    /// is the share of it that gives the rated voltage, rounded down so sustained drive never
    /// exceeds it; for an LRA at the lowest frequency OL_LRA_PERIOD can set, where the RMS of a
    /// full-scale drive is highest.
    private static func realtimeInput(_ configuration: DRV2605Configuration, overdriveClamp: UInt8) -> DRV2605RealtimeInput {
        let ratings = configuration.ratings
        var input = DRV2605RealtimeInput(format: configuration.realtimeFormat, direction: configuration.inputDirection, loop: ratings.loop)
        guard ratings.loop == .open else { return input }
        let fullScaleVolts = ratings.kind == .lra
            ? DRV2605OpenLoopFullScale.lraRMSVolts(overdriveClamp: overdriveClamp, frequency: DRV2605OpenLoopPeriod.lowestFrequency)
            : DRV2605OpenLoopFullScale.ermAverageVolts(overdriveClamp: overdriveClamp)
        let share = fullScaleVolts > 0 ? min(1, ratings.ratedVoltage / fullScaleVolts) : 1
        input.ratedSteps = max(1, Int((share * Double(input.fullScaleSteps)).rounded(.down)))
        return input
    }

    /// BEMF_GAIN's reset value, used until calibration finds the actuator's own.
    static let defaultBackEMFGain: UInt8 = 2
    /// NG_THRESH's reset value (4 %).
    static let defaultNoiseGate: UInt8 = 2

    /// The writes in the datasheet's order for auto-calibration inputs (N_ERM_LRA, FB_BRAKE_FACTOR,
    /// LOOP_GAIN; RATED_VOLTAGE; OD_CLAMP; AUTO_CAL_TIME; DRIVE_TIME; SAMPLE_TIME, BLANKING_TIME,
    /// IDISS_TIME), then loop and RTP format, open-loop period, library, stored calibration.
    public var writes: [DRV2605RegisterWrite] {
        var writes = [
            DRV2605RegisterWrite(.feedbackControl, feedbackControl),
            DRV2605RegisterWrite(.ratedVoltage, ratedVoltage),
            DRV2605RegisterWrite(.overdriveClamp, overdriveClamp),
            DRV2605RegisterWrite(.control4, control4),
            DRV2605RegisterWrite(.control1, control1),
            DRV2605RegisterWrite(.control2, control2),
            DRV2605RegisterWrite(.control3, control3),
        ]
        if let openLoopPeriod { writes.append(DRV2605RegisterWrite(.openLoopLRAPeriod, openLoopPeriod)) }
        if let librarySelect { writes.append(DRV2605RegisterWrite(.librarySelect, librarySelect)) }
        if let calibration {
            writes.append(DRV2605RegisterWrite(.autoCalibrationCompensation, calibration.compensation))
            writes.append(DRV2605RegisterWrite(.autoCalibrationBackEMF, calibration.backEMF))
        }
        return writes
    }

    private static func check(_ value: UInt8, _ field: DRV2605Field) throws(DRV2605RatingsError) {
        guard value <= field.maximum else { throw .fieldOutOfRange(field: field.name, value: value, maximum: field.maximum) }
    }
}
