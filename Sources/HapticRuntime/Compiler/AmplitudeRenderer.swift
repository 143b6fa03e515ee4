import ActuatorHAL

/// Samples a stream into `.amplitude` (and `.frequency`) commands.
///
/// Samples fall at span start + k / rate. Amplitudes are rounded once, to the steps the actuator
/// can express (`ActuatorCapabilities.amplitudeSteps`; 8-bit steps, 1/127 signed and 1/255
/// unsigned, when it does not say), so the driver writes exactly the compiled value; a command is
/// emitted only when the rounded value changes. At the end of a span the drive returns to 0; on actuators with signed amplitude it first
/// brakes for one update period at minus half the last amplitude, which stops an LRA's ringing
/// sooner than coasting.
struct AmplitudeRenderer: Sendable {
    var evaluator: PatternEvaluator
    var mapping: SharpnessMapping
    var rate: Double
    var signed: Bool
    /// Steps from zero to full amplitude.
    var steps: Int
    /// Whether samples that cannot write anything are skipped: those the content promises are
    /// unchanged (`StreamCursor.steadyUntil`) — a 65 s rumble is sampled a few times, not 65,535 —
    /// and those of a straight stretch whose amplitude is known not to change
    /// (`firstChange(after:of:cursor:span:)`). Off only to check that skipping changes no command.
    var skipsSteadyStretches = true
    /// A straight stretch changing amplitude more often than once in this many samples is sampled
    /// one by one: finding each change by probing ahead would cost more samples than it skips.
    static let sparseChangeSpacing = 16
    /// The most samples taken one by one before looking for a straight stretch again, after
    /// looks that found none worth skipping: each look costs a few hundred instructions, and a
    /// followed wave of 32 points a period (a segment every few samples) would pay one per segment.
    static let longestLookBackoff = 512

    /// The renderer for an actuator with `capabilities`.
    init(evaluator: PatternEvaluator, capabilities: ActuatorCapabilities, rate: Double) {
        self.evaluator = evaluator
        mapping = SharpnessMapping(capabilities: capabilities)
        self.rate = rate
        signed = capabilities.supportsSignedAmplitude
        steps = max(1, capabilities.amplitudeSteps ?? (signed ? 127 : 255))
    }

    private var step: Double { 1 / Double(steps) }

    /// Appends the commands of `slice` over `span` to `commands`: written in place, as a
    /// program's tens of thousands of samples were copied from an array of their own before.
    func render(_ slice: StreamSlice, over span: TimeSpan, into commands: inout [TimedCommand]) {
        var lastAmplitude = 0.0
        var lastFrequency: Double?
        var cursor = slice.cursor()
        let count = max(1, Int(((span.end - span.start) * rate).rounded(.up)))
        var previous: DriveLevel?
        var k = 0
        // Samples up to this one are taken one by one, and the number to take so after the next
        // look that finds no stretch worth skipping (it doubles with each such look).
        var eachSampleThrough = -1
        var lookBackoff = 1
        while k < count {
            let time = span.start + Double(k) / rate
            guard time < span.end else { break }
            let level = cursor.level(at: time)
            let index = k
            k += 1
            let isSteady = level == previous
            if skipsSteadyStretches, isSteady {
                k = max(k, lastSample(before: cursor.steadyUntil(after: time), in: span))
            }
            previous = level
            let amplitude = quantize(mapping.amplitude(for: level))
            if amplitude > 0, let frequency = mapping.adjustableFrequency(for: level.sharpness) {
                let rounded = (frequency * 10).rounded() / 10
                if rounded != lastFrequency {
                    commands.append(TimedCommand(time: time, command: .frequency(rounded)))
                    lastFrequency = rounded
                }
            }
            if amplitude != lastAmplitude {
                commands.append(TimedCommand(time: time, command: .amplitude(amplitude)))
                lastAmplitude = amplitude
            }
            if skipsSteadyStretches, !isSteady, index > eachSampleThrough {
                if let next = firstChange(after: index, of: amplitude, cursor: cursor, span: span) {
                    k = max(k, next)
                    lookBackoff = 1
                } else {
                    eachSampleThrough = index + lookBackoff
                    lookBackoff = min(2 * lookBackoff, Self.longestLookBackoff)
                }
            }
        }
        if lastAmplitude > 0 {
            if signed {
                commands.append(TimedCommand(time: span.end, command: .amplitude(-quantize(lastAmplitude / 2))))
                commands.append(TimedCommand(time: span.end + 1 / rate, command: .amplitude(0)))
            } else {
                commands.append(TimedCommand(time: span.end, command: .amplitude(0)))
            }
        }
    }

    /// The index of the sample one short of `until` (the first sample past a stretch), so that
    /// rounding in the content's times never decides a sample.
    private func lastSample(before until: Double, in span: TimeSpan) -> Int {
        Int(((min(span.end, until) - span.start) * rate).rounded(.down)) - 1
    }

    /// Where to sample next after sample `index`, whose amplitude is `amplitude` and whose level
    /// `cursor` gave last: the first sample of its straight stretch (`StreamCursor.straightUntil`)
    /// with another amplitude, or the last of the stretch when none has one. Over such a stretch
    /// the level only rises or only falls at one sharpness, and so does the amplitude once mapped
    /// and quantised: a later sample with the same amplitude means every sample between has it
    /// and writes nothing. The change is found by probing ahead on copies of the cursor, doubling
    /// the distance, then halving the last step. A 65 s force-feedback ramp is 127 amplitude
    /// steps: a few hundred probes, not 65,535 samples. Nil for a stretch shorter than
    /// `sparseChangeSpacing` samples or changing more often than once in as many: sampled one by one.
    private func firstChange(after index: Int, of amplitude: Double, cursor: StreamCursor, span: TimeSpan) -> Int? {
        let time = span.start + Double(index) / rate
        let last = lastSample(before: cursor.straightUntil(after: time), in: span)
        guard last - index > Self.sparseChangeSpacing else { return nil }
        func amplitudeProbed(at sample: Int) -> Double {
            var probe = cursor
            return quantize(mapping.amplitude(for: probe.level(at: span.start + Double(sample) / rate)))
        }
        let atLast = amplitudeProbed(at: last)
        guard atLast != amplitude else { return last }
        let changes = (abs(atLast - amplitude) / step).rounded()
        guard Double(last - index) >= changes * Double(Self.sparseChangeSpacing) else { return nil }
        // `same` has the amplitude, `changed` another; every sample after `changed` has another too.
        var same = index
        var changed = last
        var distance = 1
        while same + distance < changed {
            if amplitudeProbed(at: same + distance) == amplitude {
                same += distance
                distance *= 2
            } else {
                changed = same + distance
                break
            }
        }
        while changed - same > 1 {
            let middle = same + (changed - same) / 2
            if amplitudeProbed(at: middle) == amplitude { same = middle } else { changed = middle }
        }
        return changed
    }

    func quantize(_ amplitude: Double) -> Double {
        (min(1, max(0, amplitude)) / step).rounded() * step
    }
}
