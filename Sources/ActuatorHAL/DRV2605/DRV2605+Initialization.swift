extension DRV2605 {
    /// The datasheet initialisation procedure for `configuration`, returning whether registers had
    /// to be written:
    /// 1. EN high, then wait 250 µs before any I2C traffic.
    /// 2. Identify the chip from STATUS.DEVICE_ID (refusing anything else).
    /// 3. When `verifyFirst`, read the configuration registers back; if all hold the expected values
    ///    (the register file survived EN low), skip to 6.
    /// 4. MODE ← 0x00: leave standby.
    /// 5. Write ratings and loop parameters, library, and any stored calibration (`DRV2605RegisterValues.writes`).
    /// 6. MODE ← 0x40: internal trigger, back in standby until content is prepared.
    @discardableResult
    public func initialize(
        _ configuration: DRV2605Configuration,
        calibration: DRV2605CalibrationResult? = nil,
        verifyFirst: Bool = true
    ) throws(DRV2605Error) -> Bool {
        try enable()
        let variant = try identify()
        let values = try DRV2605RegisterValues(configuration: configuration, variant: variant, calibration: calibration)
        var mustWrite = true
        if verifyFirst {
            mustWrite = try !holds(values.writes)
        }
        if mustWrite {
            try setMode(.internalTrigger, standby: false)
            try write(values.writes)
        }
        try setMode(.internalTrigger, standby: true)
        return mustWrite
    }

    /// Writes the configuration registers (the chip must be identified).
    @discardableResult
    public func configure(_ configuration: DRV2605Configuration, calibration: DRV2605CalibrationResult? = nil) throws(DRV2605Error) -> DRV2605RegisterValues {
        let variant = try identifiedVariant()
        let values = try DRV2605RegisterValues(configuration: configuration, variant: variant, calibration: calibration)
        try write(values.writes)
        return values
    }

    /// Whether every register in `writes` already holds its value (reads stop at the first difference).
    public func holds(_ writes: [DRV2605RegisterWrite]) throws(DRV2605Error) -> Bool {
        for write in writes where try readRegister(write.register) != write.value {
            return false
        }
        return true
    }

    /// Selects a ROM library (LIBRARY_SEL, keeping HI_Z clear).
    public func selectLibrary(_ library: ROMLibrary) throws(DRV2605Error) {
        let variant = try identifiedVariant()
        guard variant.supports(library) else {
            throw .unsupported(variant: variant, "select ROM library \(library)")
        }
        try writeRegister(.librarySelect, DRV2605Field.library.encode(library.rawValue))
    }
}
