import Foundation

/// Renders a stream as PCM for audio-driven actuators: a sine at the mapped frequency (sharpness
/// when the frequency is adjustable, else the resonance) times the mixed amplitude.
///
/// The level and frequency are evaluated at the control rate (the update rate) and held between;
/// the phase runs on continuously so frequency changes do not click. Samples come in blocks of
/// `pcmBlockDuration`, each a `.pcm` command at its first sample's time; between spans the sink
/// plays silence.
struct PCMRenderer: Sendable {
    var evaluator: PatternEvaluator
    var mapping: SharpnessMapping
    var options: CompilerOptions
    var controlRate: Double

    func render(_ stream: StreamContent) -> ([TimedCommand], Double) {
        let spans = stream.spans(in: evaluator.pattern, joinGap: 1 / controlRate)
        guard let first = spans.first else { return ([], 0) }
        var commands = [TimedCommand(time: first.start - max(0, options.modeSwitchCost.secondsValue), command: .prepare(.pcm))]
        let sampleRate = Double(max(1, options.pcmSampleRate))
        let blockLength = max(1, Int((options.pcmBlockDuration * sampleRate).rounded()))
        let controlInterval = max(1, Int((sampleRate / controlRate).rounded()))
        var end = 0.0
        for span in spans {
            var cursor = stream.slice(span, evaluator: evaluator).cursor()
            // The epsilon keeps 0.05 s × 8000 Hz (= 400.00000000000006 in binary) at 400 samples.
            let total = Int(((span.end - span.start) * sampleRate - 1e-9).rounded(.up))
            var phase = 0.0
            var amplitude = 0.0
            var frequency = 0.0
            var block: [Int16] = []
            block.reserveCapacity(blockLength)
            var blockStart = 0
            for n in 0..<total {
                if n % controlInterval == 0 {
                    let level = cursor.level(at: span.start + Double(n) / sampleRate)
                    amplitude = mapping.amplitude(for: level)
                    frequency = mapping.pcmFrequency(for: level.sharpness)
                }
                block.append(Int16((amplitude * sin(phase) * 32767).rounded()))
                phase += 2 * Double.pi * frequency / sampleRate
                if phase >= 2 * Double.pi { phase -= 2 * Double.pi }
                if block.count == blockLength || n == total - 1 {
                    commands.append(TimedCommand(time: span.start + Double(blockStart) / sampleRate, command: .pcm(block)))
                    block.removeAll(keepingCapacity: true)
                    blockStart = n + 1
                }
            }
            end = max(end, span.end)
        }
        return (commands, end)
    }
}
