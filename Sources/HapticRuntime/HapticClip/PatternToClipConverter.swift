/// The work of `HapticClip.conversion(of:)`: samples a pattern's continuous haptics, places its
/// transients as emphasis, and lists what the clip cannot carry.
struct PatternToClipConverter {
    let pattern: HapticPattern
    let evaluator: PatternEvaluator
    private var losses: [String] = []

    init(pattern: HapticPattern) {
        let playable = PlayablePattern(pattern, maximumDuration: CompilerOptions().maximumDuration).pattern
        self.pattern = playable
        evaluator = PatternEvaluator(playable)
    }

    mutating func convert() -> HapticClipConversion {
        let continuous = pattern.events.indices.filter { pattern.events[$0].type == .hapticContinuous }
        let transients = evaluator.impulses
        let end = max(pattern.events.filter(\.type.isHaptic).map(\.soundingEnd).max() ?? 0, HapticEvent.transientNominalDuration)
        let times = sampleTimes(continuous: continuous, transients: transients, end: end)
        var amplitude: [EnvelopePoint] = []
        var frequency: [EnvelopePoint] = []
        var overlapped = false
        var window = ActiveEvents(events: continuous, pattern: pattern)
        for time in times {
            // The value just before `time` differs from the value at `time` only at a step; both
            // are kept there, as two breakpoints at one time.
            let before = window.sounding(at: time.nextDown.nextDown, evaluator: evaluator)
            let at = window.sounding(at: time, evaluator: evaluator)
            if at.count > 1 || before.count > 1 { overlapped = true }
            let (left, right) = (Self.mixed(before.map(Self.level)), Self.mixed(at.map(Self.level)))
            let tolerance = HapticClip.conversionTolerance
            if time > 0, abs(left.intensity - right.intensity) > tolerance {
                amplitude.append(EnvelopePoint(time: time, value: left.intensity))
            }
            amplitude.append(EnvelopePoint(time: time, value: right.intensity))
            // Without anything sounding there is no sharpness: hold the last one so it adds no points.
            let held = frequency.last?.value ?? 0
            let (leftSharpness, rightSharpness) = (before.isEmpty ? held : left.sharpness, at.isEmpty ? held : right.sharpness)
            if time > 0, abs(leftSharpness - rightSharpness) > tolerance {
                frequency.append(EnvelopePoint(time: time, value: leftSharpness))
            }
            frequency.append(EnvelopePoint(time: time, value: rightSharpness))
        }
        // Simplified in intensity and sharpness, the scale that plays, then squared.
        var breakpoints = amplitude.simplified(tolerance: HapticClip.conversionTolerance)
            .map { AmplitudeBreakpoint(time: Self.rounded($0.time), amplitude: Self.rounded(Self.unit($0.value * $0.value))) }
        place(transients, on: &breakpoints)
        let frequencyPoints = frequency.simplified(tolerance: HapticClip.conversionTolerance)
            .map { FrequencyBreakpoint(time: Self.rounded($0.time), frequency: Self.rounded(Self.unit($0.value * $0.value))) }
        recordLosses(overlapped: overlapped)
        var clip = HapticClip(amplitude: breakpoints, frequency: continuous.isEmpty ? nil : frequencyPoints)
        clip.metadata.project = pattern.metadata["Project"] ?? ""
        clip.metadata.description = pattern.metadata["Description"] ?? ""
        return HapticClipConversion(clip: clip, losses: losses)
    }

    /// The compiler's mix (intensities summed and clamped, sharpness weighted by intensity),
    /// except that silent events keep their sharpness (their plain mean) instead of the mix's 0.5.
    private static func mixed(_ levels: [DriveLevel]) -> DriveLevel {
        let level = DriveLevel.mix(levels)
        guard level.intensity == 0, !levels.isEmpty else { return level }
        return DriveLevel(intensity: 0, sharpness: levels.reduce(0) { $0 + $1.sharpness } / Double(levels.count))
    }

    private static func level(_ sounding: SoundingEvent) -> DriveLevel {
        DriveLevel(intensity: sounding.intensity, sharpness: sounding.sharpness)
    }

    /// Every corner of the continuous haptics (both sides of each event start and end, envelope
    /// corners, curve points, parameter changes), every transient, and a 5 ms grid in between.
    private func sampleTimes(continuous: [Int], transients: [TransientImpulse], end: Double) -> [Double] {
        var corners: [Double] = [0, end]
        for index in continuous {
            let event = pattern.events[index]
            corners += [event.time, event.soundingEnd]
            for id in [EventParameterID.attackTime, .decayTime, .releaseTime] {
                let seconds = event.value(of: id)
                corners += [event.time + seconds, event.soundingEnd - seconds, event.time + event.value(of: .attackTime) + seconds]
            }
        }
        corners += transients.map(\.time)
        corners += pattern.parameters.map(\.time)
        for curve in pattern.parameterCurves { corners += curve.controlPoints.map { curve.time + $0.time } + [curve.time] }
        let gridCount = Int((end / HapticClip.conversionSampleInterval).rounded(.up))
        corners += (0...gridCount).map { Double($0) * HapticClip.conversionSampleInterval }
        return Set(corners.filter { $0 >= 0 && $0 <= end }).sorted()
    }

    /// Puts each transient (simultaneous ones mixed) as emphasis on a breakpoint at its time,
    /// inserting one on the envelope where none is; the breakpoint's amplitude is divided by the
    /// ducking so the pattern made from the clip has the original intensity there.
    private mutating func place(_ transients: [TransientImpulse], on breakpoints: inout [AmplitudeBreakpoint]) {
        var raised = 0
        var byTime: [(time: Double, impulses: [TransientImpulse])] = []
        for impulse in transients {
            if byTime.last?.time == impulse.time { byTime[byTime.count - 1].impulses.append(impulse) } else { byTime.append((impulse.time, [impulse])) }
        }
        for (time, impulses) in byTime {
            let level = Self.mixed(impulses.map { DriveLevel(intensity: $0.intensity, sharpness: $0.sharpness) })
            // At a step, the emphasis goes on the later breakpoint (the value from `time` on).
            let index = breakpoints.lastIndex { $0.time == time } ?? insertBreakpoint(at: time, into: &breakpoints)
            let continuous = breakpoints[index].amplitude.squareRoot() / HapticClip.emphasisDucking
            let amplitude = Self.rounded(Self.unit(continuous * continuous))
            let emphasisAmplitude = Self.rounded(level.intensity * level.intensity)
            if emphasisAmplitude < amplitude { raised += 1 }
            breakpoints[index].amplitude = amplitude
            breakpoints[index].emphasis = Emphasis(amplitude: max(emphasisAmplitude, amplitude), frequency: Self.rounded(Self.unit(level.sharpness)))
        }
        if raised > 0 {
            losses.append("\(raised) transient(s) weaker than the continuous signal under them raised to its level (an emphasis is never below its breakpoint)")
        }
    }

    /// Inserts a breakpoint at `time` on the linear envelope and returns its index.
    private func insertBreakpoint(at time: Double, into breakpoints: inout [AmplitudeBreakpoint]) -> Int {
        let index = breakpoints.firstIndex { $0.time > time } ?? breakpoints.count
        let value: Double
        if index == 0 {
            value = breakpoints.first?.amplitude ?? 0
        } else if index == breakpoints.count {
            value = breakpoints.last?.amplitude ?? 0
        } else {
            let (a, b) = (breakpoints[index - 1], breakpoints[index])
            let span = b.time - a.time
            value = span > 0 ? a.amplitude + (b.amplitude - a.amplitude) * (time - a.time) / span : b.amplitude
        }
        breakpoints.insert(AmplitudeBreakpoint(time: time, amplitude: value), at: index)
        return index
    }

    private mutating func recordLosses(overlapped: Bool) {
        let audio = pattern.events.count { !$0.type.isHaptic }
        if audio > 0 { losses.append("\(audio) audio event(s) left out (.haptic has no sound)") }
        let shaped = pattern.events.count { event in
            event.type == .hapticContinuous && event.parameters.contains { [.attackTime, .decayTime, .releaseTime, .sustained].contains($0.id) }
        }
        if shaped > 0 { losses.append("attack/decay/release/sustain parameters of \(shaped) event(s) (their shape is sampled into the envelope)") }
        if overlapped { losses.append("overlapping continuous events summed and clamped to 1") }
        // Intensity and sharpness controls are carried, sampled into the envelopes; the others are not.
        let carried: Set<DynamicParameterID> = [.hapticIntensityControl, .hapticSharpnessControl]
        let others = pattern.parameters.count { !carried.contains($0.id) } + pattern.parameterCurves.count { !carried.contains($0.id) }
        if others > 0 { losses.append("\(others) dynamic parameter(s) or curve(s) other than intensity and sharpness controls (envelope times, audio controls)") }
        if pattern.events.contains(where: { $0.romCue != nil }) { losses.append("ROM effect choices of notes (their events are kept)") }
        let padded = pattern.events.count { $0.type == .hapticTransient && $0.duration != nil }
        if padded > 0 { losses.append("EventDuration of \(padded) transient(s)") }
    }

    private static func unit(_ value: Double) -> Double { value.isNaN ? 0 : min(1, max(0, value)) }

    /// Values and times to a millionth, far below what an actuator renders, so files stay readable.
    private static func rounded(_ value: Double) -> Double { (value * 1e6).rounded() / 1e6 }
}

/// The continuous events sounding around a time, for a sweep through increasing times: events
/// enter by start time and leave once past their end, so each sample looks at a few events only.
private struct ActiveEvents {
    private let order: [Int]
    private let pattern: HapticPattern
    private var nextToEnter = 0
    private var active: [Int] = []
    /// Where the controls were found at the last time (`ControlTimeline.Hint`).
    private var controls = ControlTimeline.Cursor()

    init(events: [Int], pattern: HapticPattern) {
        order = events.sorted { pattern.events[$0].time < pattern.events[$1].time }
        self.pattern = pattern
    }

    /// Times must not decrease by more than an instant between calls.
    mutating func sounding(at time: Double, evaluator: PatternEvaluator) -> [SoundingEvent] {
        while nextToEnter < order.count, pattern.events[order[nextToEnter]].time <= time {
            active.append(order[nextToEnter])
            nextToEnter += 1
        }
        // Kept a little past their end, for the sample an instant before the next time.
        active.removeAll { pattern.events[$0].soundingEnd < time - 1e-9 }
        var sounding: [SoundingEvent] = []
        for index in active {
            if let event = evaluator.sounding(eventAt: index, at: max(0, time), cursor: &controls) { sounding.append(event) }
        }
        return sounding
    }
}
