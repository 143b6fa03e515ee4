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
    /// Whether samples the content promises are unchanged are skipped (`StreamCursor.steadyUntil`).
    /// They write nothing: a 65 s rumble is sampled a few times, not 65,535. Off only to check
    /// that skipping changes no command.
    var skipsSteadyStretches = true

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
        while k < count {
            let time = span.start + Double(k) / rate
            guard time < span.end else { break }
            let level = cursor.level(at: time)
            k += 1
            if skipsSteadyStretches, level == previous {
                // Resumes one sample short of where the level may change, so rounding in the
                // content's times never decides a sample.
                let until = min(span.end, cursor.steadyUntil(after: time))
                let resume = Int(((until - span.start) * rate).rounded(.down)) - 1
                if resume > k { k = resume }
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

    func quantize(_ amplitude: Double) -> Double {
        (min(1, max(0, amplitude)) / step).rounded() * step
    }
}
