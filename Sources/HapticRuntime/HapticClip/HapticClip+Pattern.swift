extension HapticClip {
    /// Core Haptics intensity is perceived quadratically, so Meta maps amplitude to intensity with
    /// a square root (and frequency to sharpness likewise); the inverse mapping squares.
    static func intensity(forAmplitude amplitude: Double) -> Double { amplitude.squareRoot() }

    /// Continuous intensity at a breakpoint carrying emphasis is scaled by this (Meta's 20 %
    /// ducking), so the click stands out of the continuous signal around it.
    public static let emphasisDucking = 0.8

    /// Core Haptics takes at most 16 control points per parameter curve; longer envelopes are
    /// written as consecutive curves, each starting on the previous one's last point.
    public static let controlPointsPerCurve = 16

    /// The clip as a Core Haptics pattern, by Meta's mapping (`core/haptic_data/src/ahap.rs` of
    /// the Meta Haptics SDK), which is also what `convert --to ahap` writes:
    ///
    /// - HapticContinuous events of intensity 1 and sharpness 0, cut into pieces of at most 30 s;
    /// - a HapticIntensityControl curve through √amplitude at every amplitude breakpoint, × 0.8 at
    ///   breakpoints that carry emphasis (ducking);
    /// - a HapticSharpnessControl curve through √frequency at every frequency breakpoint;
    /// - each emphasis a HapticTransient of intensity √(emphasis amplitude) and sharpness
    ///   (emphasis frequency) at its breakpoint's time, marked `isEmphasis` so the compiler
    ///   layers it over the continuous signal as a pulse (a short, strong click: 20 ms − 10 ms ×
    ///   sharpness, its intensity added to the ducked continuous intensity and clamped to 1).
    ///
    /// Two corrections to the reference converters: control-point times are relative to their
    /// curve's `Time`, as Apple defines them (the converters write absolute times, which play late
    /// whenever the first breakpoint is not at 0), and the continuous events start at the first
    /// amplitude breakpoint instead of at 0 (before it the intensity control would default to 1:
    /// a full-strength buzz the clip does not have). Curves are chunked at 16 points; frequency
    /// breakpoints past the amplitude envelope's end are clamped to it.
    public var pattern: HapticPattern {
        guard let first = amplitude.first, let last = amplitude.last else { return HapticPattern() }
        var pattern = HapticPattern(version: 1, metadata: metadataForPattern)
        let continuous = HapticEvent(
            type: .hapticContinuous, time: first.time, duration: last.time - first.time,
            parameters: [EventParameter(.hapticIntensity, 1), EventParameter(.hapticSharpness, 0)])
        pattern.events = continuous.splitAtContinuousLimit()
        for breakpoint in amplitude {
            guard let emphasis = breakpoint.emphasis else { continue }
            var click = HapticEvent(type: .hapticTransient, time: breakpoint.time, parameters: [
                EventParameter(.hapticIntensity, Self.intensity(forAmplitude: emphasis.amplitude)),
                EventParameter(.hapticSharpness, emphasis.frequency),
            ])
            click.isEmphasis = true
            pattern.events.append(click)
        }
        let intensityPoints = amplitude.map { breakpoint in
            let intensity = Self.intensity(forAmplitude: breakpoint.amplitude)
            return ControlPoint(time: breakpoint.time, value: breakpoint.emphasis == nil ? intensity : intensity * Self.emphasisDucking)
        }
        pattern.parameterCurves = Self.curves(.hapticIntensityControl, through: intensityPoints)
        if let frequency = clampedFrequency(endingAt: last.time) {
            let sharpnessPoints = frequency.map { ControlPoint(time: $0.time, value: Self.intensity(forAmplitude: $0.frequency)) }
            pattern.parameterCurves += Self.curves(.hapticSharpnessControl, through: sharpnessPoints)
        }
        pattern.events = pattern.events.sortedByTimeKeepingOrder(\.time)
        return pattern
    }

    /// Curves of at most `controlPointsPerCurve` points through `points` (absolute times), each
    /// starting where the previous ended, with control-point times relative to the curve's `Time`.
    static func curves(_ id: DynamicParameterID, through points: [ControlPoint]) -> [ParameterCurve] {
        guard !points.isEmpty else { return [] }
        var curves: [ParameterCurve] = []
        var start = 0
        repeat {
            let end = min(points.count, start + controlPointsPerCurve)
            let origin = points[start].time
            curves.append(ParameterCurve(id, time: origin, controlPoints: points[start..<end].map {
                ControlPoint(time: $0.time - origin, value: $0.value)
            }))
            // The next curve starts on this one's last point, so the value never jumps at a seam.
            start = end - 1
        } while start < points.count - 1
        return curves
    }

    /// The frequency envelope with breakpoints after `end` replaced by one at `end` carrying the
    /// envelope's value there (design tools export envelopes that run a little past the end).
    public func clampedFrequency(endingAt end: Double) -> [FrequencyBreakpoint]? {
        guard let frequency, !frequency.isEmpty else { return nil }
        guard let firstLate = frequency.firstIndex(where: { $0.time > end }) else { return frequency }
        var kept = Array(frequency[..<firstLate])
        if kept.last?.time != end {
            let before = kept.last ?? frequency[firstLate]
            let after = frequency[firstLate]
            let span = after.time - before.time
            let value = span > 0 ? before.frequency + (after.frequency - before.frequency) * (end - before.time) / span : after.frequency
            kept.append(FrequencyBreakpoint(time: max(end, kept.last?.time ?? end), frequency: value))
        }
        return kept
    }

    /// The clip's metadata under AHAP `Metadata` keys (only the ones given).
    private var metadataForPattern: [String: String] {
        var result: [String: String] = [:]
        let fields = [("Editor", metadata.editor), ("Author", metadata.author), ("Source", metadata.source),
                      ("Project", metadata.project), ("Description", metadata.description),
                      ("Tags", metadata.tags.joined(separator: ", "))]
        for (key, value) in fields where !value.isEmpty { result[key] = value }
        return result
    }
}
