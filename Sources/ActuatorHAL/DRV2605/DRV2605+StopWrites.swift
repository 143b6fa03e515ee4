extension DRV2605 {
    /// The register writes that stop the chip from any state, for code that cannot ask it first
    /// (the crash handler and the crash guardian, which run when no Swift code can): GO ← 0 ends a
    /// ROM sequence, calibration or diagnostics; RTP_INPUT ← zero drive as `realtimeInput` reads
    /// it; MODE ← standby.
    ///
    /// The RTP byte is the configuration's silence, not a constant: signed 0x00, unsigned 0x80
    /// with bidirectional input — an unsigned 0x00 is full negative drive in bidirectional open
    /// loop (TI datasheet, "Data formats for waveform playback") — and 0x00 unidirectional.
    public static func stopWrites(realtimeInput: DRV2605RealtimeInput) -> [DRV2605RegisterWrite] {
        [
            DRV2605RegisterWrite(.go, 0),
            DRV2605RegisterWrite(.realtimeInput, realtimeInput.silence),
            DRV2605RegisterWrite(.mode, DRV2605Mode.internalTrigger.registerValue(standby: true)),
        ]
    }
}
