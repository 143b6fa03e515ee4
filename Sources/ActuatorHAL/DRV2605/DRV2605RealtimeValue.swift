/// Amplitude (−1…1 of full scale) → RTP_INPUT byte, for CONTROL2.BIDIR_INPUT = 1 (the reset value,
/// which the driver keeps): mid-scale is zero drive in both formats, so signed 0x00 / unsigned 0x80
/// is silence and 0x7F / 0xFF full scale (TI datasheet, "Data formats for waveform playback").
public enum DRV2605RealtimeValue {
    /// The RTP_INPUT byte for `amplitude` in `format`; `allowsNegative` false clamps negative
    /// amplitudes to zero (closed loop brakes on its own and treats below mid-scale as zero).
    public static func register(amplitude: Double, format: DRV2605RealtimeFormat, allowsNegative: Bool) throws(DRV2605Error) -> UInt8 {
        guard amplitude.isFinite else { throw .invalidAmplitude(amplitude) }
        let clamped = min(max(amplitude, allowsNegative ? -1 : 0), 1)
        let steps = Int((clamped * 127).rounded())
        switch format {
        case .signed: return UInt8(bitPattern: Int8(steps))
        case .unsigned: return UInt8(128 + steps)
        }
    }
}
