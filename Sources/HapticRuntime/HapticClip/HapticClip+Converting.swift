extension HapticClip {
    /// How far (in intensity and sharpness, 0…1: the scale that plays) the clip's envelopes may
    /// stray from the pattern's sampled values between the breakpoints kept.
    public static let conversionTolerance = 0.002
    /// Spacing of the samples taken between a pattern's corners (event starts and ends, envelope
    /// and curve corners), where products of ramps curve.
    static let conversionSampleInterval = 0.005

    /// The inverse of ``pattern`` (Meta's mapping) for any pattern:
    /// - the amplitude envelope is intensity² of the haptic continuous events, mixed as the
    ///   compiler mixes them (summed and clamped to 1) after their envelopes, dynamic parameters
    ///   and curves — sampled at every corner and every 5 ms, then simplified to within
    ///   ``conversionTolerance`` in intensity; the frequency envelope is sharpness² likewise;
    /// - each transient becomes an emphasis (amplitude intensity², frequency sharpness) on an
    ///   amplitude breakpoint at its time, whose amplitude is un-ducked (÷ 0.8 in intensity) so
    ///   that ``pattern`` gives the intensity back there;
    /// - what `.haptic` cannot carry is listed in ``HapticClipConversion/losses``.
    public init(converting pattern: HapticPattern) {
        self = HapticClip.conversion(of: pattern).clip
    }

    /// ``init(converting:)`` with the list of what was lost.
    public static func conversion(of pattern: HapticPattern) -> HapticClipConversion {
        var converter = PatternToClipConverter(pattern: pattern)
        return converter.convert()
    }
}
