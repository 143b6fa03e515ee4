extension DRV2605 {
    /// How often GO is polled while calibration or diagnostics run (drv260x.c polls every 15 ms).
    public static let runPollInterval = Duration.milliseconds(15)

    /// The datasheet auto-calibration procedure:
    /// 1. Write the ratings and loop parameters: calibration reads RATED_VOLTAGE, OD_CLAMP,
    ///    DRIVE_TIME, SAMPLE_TIME … as its inputs.
    /// 2. MODE ← auto-calibration (7), out of standby.
    /// 3. GO ← 1.
    /// 4. Poll GO every 15 ms until it clears. Past AUTO_CAL_TIME's bound the chip is reset (the
    ///    datasheet does not say GO ← 0 cancels calibration) and verified, and nothing is returned.
    /// 5. MODE ← standby; STATUS.DIAG_RESULT set means it did not converge.
    /// 6. Read the results: A_CAL_COMP, A_CAL_BEMF, FEEDBACK_CONTROL.BEMF_GAIN.
    public func calibrate(_ configuration: DRV2605Configuration) throws(DRV2605Error) -> DRV2605CalibrationResult {
        try configure(configuration)
        try setMode(.autoCalibration, standby: false)
        try go()
        let timeout = configuration.autoCalibrationTime.timeout
        try waitUntilFinished(timeout: timeout, timeoutError: .calibrationTimeout(timeout))
        let status = try readStatus()
        try setMode(.internalTrigger, standby: true)
        guard !status.diagnosticFailed else { throw .calibrationFailed(status: status.rawValue) }
        return DRV2605CalibrationResult(
            compensation: try readRegister(.autoCalibrationCompensation),
            backEMF: try readRegister(.autoCalibrationBackEMF),
            backEMFGain: DRV2605Field.backEMFGain.value(in: try readRegister(.feedbackControl))
        )
    }

    /// Restores a stored calibration without recalibrating: A_CAL_COMP, A_CAL_BEMF and BEMF_GAIN
    /// (the rest of FEEDBACK_CONTROL is kept).
    public func apply(_ calibration: DRV2605CalibrationResult) throws(DRV2605Error) {
        guard calibration.backEMFGain <= DRV2605Field.backEMFGain.maximum else {
            throw .invalidRatings(.fieldOutOfRange(field: DRV2605Field.backEMFGain.name, value: calibration.backEMFGain, maximum: DRV2605Field.backEMFGain.maximum))
        }
        try writeRegister(.autoCalibrationCompensation, calibration.compensation)
        try writeRegister(.autoCalibrationBackEMF, calibration.backEMF)
        let feedback = try readRegister(.feedbackControl)
        try writeRegister(.feedbackControl, DRV2605Field.backEMFGain.replacing(in: feedback, with: calibration.backEMFGain))
    }

    /// Actuator diagnostics (MODE 6): checks the actuator is connected and not shorted. The chip
    /// must be configured for the actuator type first. Returns STATUS; DIAG_RESULT set → `.diagnosticsFailed`.
    @discardableResult
    public func runDiagnostics(timeout: Duration = DRV2605AutoCalibrationTime.milliseconds1000to1200.timeout) throws(DRV2605Error) -> DRV2605Status {
        try setMode(.diagnostics, standby: false)
        try go()
        try waitUntilFinished(timeout: timeout, timeoutError: .diagnosticsTimeout(timeout))
        let status = try readStatus()
        try setMode(.internalTrigger, standby: true)
        guard !status.diagnosticFailed else { throw .diagnosticsFailed(status: status.rawValue) }
        return status
    }

    /// Polls GO until it clears. On timeout the run is ended by resetting the chip — the datasheet
    /// gives no other way to cancel calibration or diagnostics — and `timeoutError` thrown; when
    /// the reset cannot be verified, `.hungRunNotStopped` (EN has then been dropped if there is one).
    private func waitUntilFinished(timeout: Duration, timeoutError: DRV2605Error) throws(DRV2605Error) {
        let deadline = clock.now + timeout
        while true {
            try pause(Self.runPollInterval)
            guard try isRunning() else { return }
            guard clock.now < deadline else {
                try endHungRun()
                throw timeoutError
            }
        }
    }

    /// DEV_RESET, then reads back what a reset chip holds (MODE 0x40: standby, internal trigger;
    /// GO 0; the variant's RATED_VOLTAGE and OD_CLAMP reset values). If the chip does not answer so,
    /// EN goes low where there is an EN line, and `.hungRunNotStopped` is thrown either way. The
    /// configuration is gone afterwards: the caller initialises the chip again.
    public func endHungRun() throws(DRV2605Error) {
        do throws(DRV2605Error) {
            try reset()
            let features = try identifiedVariant().features
            let expected: [(DRV2605Register, UInt8)] = [(.mode, 0x40), (.go, 0), (.ratedVoltage, features.resetRatedVoltage), (.overdriveClamp, features.resetOverdriveClamp)]
            for (register, value) in expected {
                let found = try readRegister(register)
                guard found == value else { throw .resetNotVerified(register: register, expected: value, found: found) }
            }
        } catch {
            if enableLine != nil { try? disable() }
            throw .hungRunNotStopped(error)
        }
    }
}
