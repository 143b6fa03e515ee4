extension DRV2605 {
    /// Loads up to eight steps into the sequencer (terminated by a 0 slot when shorter), in one write.
    public func load(_ sequence: DRV2605Sequence) throws(DRV2605Error) {
        try writeConsecutive(from: .waveformSequence1, sequence.slotValues)
    }

    /// Validates, loads and starts `steps` (the chip must be out of standby in internal-trigger mode).
    public func play(_ steps: [SequencerStep]) throws(DRV2605Error) {
        try play(try DRV2605Sequence.validated(steps))
    }

    /// Loads and starts an already validated sequence.
    public func play(_ sequence: DRV2605Sequence) throws(DRV2605Error) {
        try load(sequence)
        try go()
    }

    /// Sets RTP_INPUT's number format (CONTROL3.DATA_FORMAT_RTP), keeping the rest of CONTROL3.
    public func setRealtimeFormat(_ format: DRV2605RealtimeFormat) throws(DRV2605Error) {
        let control3 = try readRegister(.control3)
        try writeRegister(.control3, DRV2605Field.realtimeDataUnsigned.replacing(in: control3, with: format == .unsigned ? 1 : 0))
    }

    /// Writes a signed RTP value (DATA_FORMAT_RTP = 0): 127 full scale, −127 full reverse drive.
    public func writeRealtime(signed value: Int8) throws(DRV2605Error) {
        try writeRegister(.realtimeInput, UInt8(bitPattern: value))
    }

    /// Writes an unsigned RTP value (DATA_FORMAT_RTP = 1).
    public func writeRealtime(unsigned value: UInt8) throws(DRV2605Error) {
        try writeRegister(.realtimeInput, value)
    }
}
