extension DRV2605 {
    /// The register writes that stop the chip from any state, for code that cannot ask it first
    /// (the crash handler and the crash guardian, which run when no Swift code can): GO ← 0 ends a
    /// ROM sequence, calibration or diagnostics; RTP_INPUT ← zero drive in `realtimeFormat`; MODE ←
    /// standby.
    ///
    /// The RTP byte is the format's silence, not a constant: signed 0x00, unsigned 0x80 — an
    /// unsigned 0x00 is full negative drive in bidirectional open loop (TI datasheet, "Data formats
    /// for waveform playback").
    public static func stopWrites(realtimeFormat: DRV2605RealtimeFormat) throws(DRV2605Error) -> [DRV2605RegisterWrite] {
        let silence = try DRV2605RealtimeValue.register(amplitude: 0, format: realtimeFormat, allowsNegative: true)
        return [
            DRV2605RegisterWrite(.go, 0),
            DRV2605RegisterWrite(.realtimeInput, silence),
            DRV2605RegisterWrite(.mode, DRV2605Mode.internalTrigger.registerValue(standby: true)),
        ]
    }
}
