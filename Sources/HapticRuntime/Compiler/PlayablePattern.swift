/// Makes any pattern safe to sample: content from files can hold infinite, NaN or negative times
/// and durations far beyond anything playable, and the compiler must neither trap on them nor
/// render hours of samples.
struct PlayablePattern {
    var pattern: HapticPattern
    var warnings: [ProgramWarning] = []

    init(_ source: HapticPattern, maximumDuration: Double) {
        var pattern = source
        var unusable = 0
        var clipped = 0
        pattern.events = source.events.compactMap { event in
            let durationUsable = event.duration.map(\.isFinite) ?? true
            guard event.time.isFinite, event.time >= 0, event.time < maximumDuration, durationUsable else {
                unusable += 1
                return nil
            }
            var event = event
            if event.type != .hapticTransient, event.time + event.soundingDuration > maximumDuration {
                event.duration = maximumDuration - event.time
                clipped += 1
            }
            return event
        }
        let parameterCount = pattern.parameters.count + pattern.parameterCurves.count
        pattern.parameters = source.parameters.filter { $0.time.isFinite && $0.value.isFinite && $0.time < maximumDuration }
        pattern.parameterCurves = source.parameterCurves.compactMap { curve in
            guard curve.time.isFinite, curve.time < maximumDuration else { return nil }
            var curve = curve
            curve.controlPoints = curve.controlPoints.filter { $0.time.isFinite && $0.value.isFinite }
            return curve
        }
        let droppedControls = parameterCount - pattern.parameters.count - pattern.parameterCurves.count
        self.pattern = pattern
        let limit = CompactNumber.text(maximumDuration)
        if unusable > 0 {
            warnings.append(ProgramWarning(time: nil, message: "\(unusable) event(s) with a non-finite, negative or too late (≥ \(limit) s) time or duration skipped"))
        }
        if clipped > 0 {
            warnings.append(ProgramWarning(time: nil, message: "\(clipped) event(s) cut at the \(limit) s program limit"))
        }
        if droppedControls > 0 {
            warnings.append(ProgramWarning(time: nil, message: "\(droppedControls) dynamic parameter(s) or curve(s) with a non-finite or too late time skipped"))
        }
    }
}
