/// Renders a stream as PCM for audio-driven actuators.
///
/// - Continuous events: a carrier at the mapped frequency (resonance on an LRA; sharpness-mapped,
///   with harmonics, on a voice coil — see `SharpnessMapping`) times the mixed level. The level
///   and frequency are evaluated at the control rate (the update rate) and held between; the
///   phase runs on continuously so frequency changes do not click.
/// - Transients: each its own burst with a shaped attack and a braking half-cycle (see
///   `TransientDrive`), added to the continuous drive; the sum is clamped to full scale.
/// Samples come in blocks of `pcmBlockDuration`, each a `.pcm` command at its first sample's time;
/// between spans the sink plays silence. A span followed by a block's worth of quiet gets one
/// block of silence behind it: a shared device (ALSA's dshare or dmix) copies a write only as far
/// as one buffer past the period it is playing and the rest with the next write, so without one
/// more write the end of the span's last block would play as silence instead of drive.
struct PCMRenderer: Sendable {
    var evaluator: PatternEvaluator
    var mapping: SharpnessMapping
    var options: CompilerOptions
    var controlRate: Double

    func render(_ stream: StreamContent) -> ([TimedCommand], Double) {
        let spans = spansCoveringBrakes(stream)
        guard let first = spans.first else { return ([], 0) }
        var commands = [TimedCommand(time: first.start - max(0, options.modeSwitchCost.secondsValue), command: .prepare(.pcm))]
        let sampleRate = Double(max(1, options.pcmSampleRate))
        let blockLength = max(1, Int((options.pcmBlockDuration * sampleRate).rounded()))
        let controlInterval = max(1, Int((sampleRate / controlRate).rounded()))
        var end = 0.0
        for (index, span) in spans.enumerated() {
            let slice = stream.slice(span, evaluator: evaluator)
            var cursor = StreamSlice(evaluator: evaluator, events: slice.events, pulses: []).cursor()
            let transients = slice.pulses.map { TransientDrive($0, mapping: mapping) }.sorted { $0.start < $1.start }
            // Only the bursts sounding are summed, so a span of thousands of taps stays cheap.
            var nextTransient = 0
            var sounding: [TransientDrive] = []
            // The epsilon keeps 0.05 s × 8000 Hz (= 400.00000000000006 in binary) at 400 samples.
            let total = Int(((span.end - span.start) * sampleRate - 1e-9).rounded(.up))
            var phase = 0.0
            var amplitude = 0.0
            var frequency = 0.0
            var sharpness = 0.0
            var block: [Int16] = []
            block.reserveCapacity(blockLength)
            var blockStart = 0
            for n in 0..<total {
                let time = span.start + Double(n) / sampleRate
                if n % controlInterval == 0 {
                    let level = cursor.level(at: time)
                    amplitude = mapping.amplitude(for: level)
                    frequency = mapping.pcmFrequency(for: level.sharpness)
                    sharpness = level.sharpness
                }
                var value = amplitude * mapping.pcmCarrier(phase: phase, sharpness: sharpness)
                while nextTransient < transients.count, transients[nextTransient].start <= time {
                    sounding.append(transients[nextTransient])
                    nextTransient += 1
                }
                sounding.removeAll { $0.end <= time }
                for transient in sounding { value += transient.sample(at: time, mapping: mapping) }
                block.append(Int16((min(1, max(-1, value)) * 32767).rounded()))
                phase += 2 * Double.pi * frequency / sampleRate
                if phase >= 2 * Double.pi { phase -= 2 * Double.pi }
                if block.count == blockLength || n == total - 1 {
                    commands.append(TimedCommand(time: span.start + Double(blockStart) / sampleRate, command: .pcm(block)))
                    block.removeAll(keepingCapacity: true)
                    blockStart = n + 1
                }
            }
            let silenceStart = span.start + Double(total) / sampleRate
            let nextStart = index + 1 < spans.count ? spans[index + 1].start : .infinity
            if silenceStart + Double(blockLength) / sampleRate <= nextStart {
                commands.append(TimedCommand(time: silenceStart, command: .pcm([Int16](repeating: 0, count: blockLength))))
            }
            // The span's whole samples end up to one sample after it; the stop comes after them.
            end = max(end, span.end, silenceStart)
        }
        return (commands, end)
    }

    /// The stream's spans, each reaching to the end of the brakes of the transients starting in
    /// it (a brake may run up to half a cycle past the pulse's nominal length), and merged where
    /// that makes them meet — so blocks never overlap and a sink fed back to back stays in time.
    private func spansCoveringBrakes(_ stream: StreamContent) -> [TimeSpan] {
        let brakeEnds = stream.pulses.map { (start: $0.time, end: TransientDrive($0, mapping: mapping).end) }
        var merged: [TimeSpan] = []
        for var span in stream.spans(in: evaluator.pattern, joinGap: 1 / controlRate) {
            span.end = max(span.end, brakeEnds.filter { $0.start >= span.start && $0.start < span.end }.map(\.end).max() ?? span.end)
            if let last = merged.last, span.start <= last.end + 1 / controlRate {
                merged[merged.count - 1].end = max(last.end, span.end)
            } else {
                merged.append(span)
            }
        }
        return merged
    }
}
